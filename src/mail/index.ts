// The outbox the server hands the schema: the SMTP sender when SMTP_URL is set, else nothing.
import type { Database } from "../db/client.ts";
import type { Log } from "../log.ts";
import { createMailSender, type MailSender } from "./sender.ts";
import type { MailSettings } from "./settings.ts";

const idle: MailSender = { enabled: false, nudge() {}, start() {}, stop: async () => {} };

export function createOutbox(database: Database, settings: MailSettings, log: Log): MailSender {
  return settings.url ? createMailSender(database, { ...settings, url: settings.url }, log) : idle;
}
