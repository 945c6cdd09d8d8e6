// What the schema hands over for delivery: plain messages, one recipient each. The schema only
// enqueues (Context.outbox); delivery happens later, outside the request, in the mail queue.
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Outbox {
  /** Queues the message and returns at once; never throws. */
  send(message: OutgoingMail): void;
  /** Resolves once nothing is queued, or after `timeoutMs` (at shutdown). */
  flush(timeoutMs: number): Promise<void>;
}

/** Without SMTP_URL: nothing is sent. */
export const noOutbox: Outbox = { send() {}, flush: async () => {} };
