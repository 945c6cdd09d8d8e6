// Notifications of a form's submissions (content-api.md leaves their content open): with
// `notification_enabled`, each of `notification_emails` gets a plain-text message naming the form and
// listing the submitted fields. Written in the submission's transaction (../mail/enqueue.ts) and sent by
// the server later: the submission never waits for, nor fails on, mail.
import type { OutgoingMail } from "../../mail/outbox.ts";
import type { FieldDefinition } from "../blueprints/fields.ts";

export interface NotifyingForm {
  title: string;
  handle: string;
  notificationEnabled: boolean;
  notificationEmails: string | null;
  collection: { handle: string };
}

/** The messages a submission sends, one per notification address (none when notifications are off). */
export function submissionMails(
  form: NotifyingForm,
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
  entryHandle: string,
): OutgoingMail[] {
  if (!form.notificationEnabled || !form.notificationEmails) return [];
  const lines = fields
    .filter((field) => values[field.handle] !== undefined)
    .map((field) => `${field.display}: ${shown(values[field.handle])}`);
  const text = [
    `New submission to the form "${form.title}" (${form.handle}).`,
    "",
    ...(lines.length > 0 ? lines : ["(no fields filled in)"]),
    "",
    `Stored as the unpublished entry ${entryHandle} of the collection ${form.collection.handle}.`,
    "",
  ].join("\n");
  const subject = `New submission: ${form.title}`.replace(/[\r\n]+/g, " ");
  return form.notificationEmails
    .split(",")
    .map((email) => email.trim())
    .filter((to) => to !== "")
    .map((to) => ({ to, subject, text }));
}

function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
