// The outbox the server hands the schema: the SMTP mail queue when SMTP_URL is set, else nothing.
import type { Log } from "../log.ts";
import { noOutbox, type Outbox } from "./outbox.ts";
import { createMailQueue } from "./queue.ts";
import type { MailSettings } from "./settings.ts";

export function createOutbox(settings: MailSettings, log: Log): Outbox {
  return settings.url ? createMailQueue({ ...settings, url: settings.url }, log) : noOutbox;
}
