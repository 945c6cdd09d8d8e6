// What the schema sees of mail: whether notifications are sent at all (SMTP_URL), and a nudge for the
// server's sender once a write has added messages. The messages themselves are rows written in the
// write's transaction (src/schema/mail/enqueue.ts); the sender (sender.ts) delivers them later.
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Outbox {
  /** SMTP is set: a write records its messages. Without it none are recorded (none would ever go). */
  enabled: boolean;
  /** Wakes the sender after a write added messages; never waits, never throws. */
  nudge(): void;
}

/** Without SMTP_URL (and in the CLI and schema tests): nothing is recorded, nothing sent. */
export const noOutbox: Outbox = { enabled: false, nudge() {} };
