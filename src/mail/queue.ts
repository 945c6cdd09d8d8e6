// The mail queue: messages wait in memory (they are lost if the process stops before delivery) and are
// sent one at a time through SMTP. A failed attempt is retried after retryDelayMs, then twice that, and
// so on (6 attempts: about a minute at the default 1 s); permanent refusals (5xx) are not retried.
// Neither a slow nor an absent SMTP server ever holds up the request that queued the message. At
// shutdown the server waits a little (flush) for what is still queued.
import nodemailer from "nodemailer";
import type { Log } from "../log.ts";
import type { Outbox, OutgoingMail } from "./outbox.ts";
import type { MailSettings } from "./settings.ts";

export interface MailQueue extends Outbox {
  /** Messages waiting or being retried. */
  pending(): number;
}

interface Job {
  message: OutgoingMail;
  attempt: number;
}

/** Also a bound on memory: past this, new messages are dropped (and logged). */
const MAX_QUEUED = 10_000;

export function createMailQueue(settings: MailSettings & { url: string }, log: Log): MailQueue {
  const transport = nodemailer.createTransport({
    url: settings.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const ready: Job[] = [];
  let waiting = 0;
  let sending = false;

  const drain = async () => {
    if (sending) return;
    sending = true;
    for (let job = ready.shift(); job; job = ready.shift()) await deliver(job);
    sending = false;
  };

  const deliver = async (job: Job) => {
    try {
      await transport.sendMail({ ...job.message, from: settings.from });
      log({ level: "info", msg: "mail sent", attempt: job.attempt });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const permanent = code !== undefined && code >= 500;
      if (permanent || job.attempt >= settings.attempts) {
        log({ level: "error", msg: "mail dropped", attempt: job.attempt, smtp_code: code ?? null });
        return;
      }
      const delay = settings.retryDelayMs * 2 ** (job.attempt - 1);
      log({
        level: "warn",
        msg: "mail retry",
        attempt: job.attempt,
        smtp_code: code ?? null,
        delay_ms: delay,
      });
      waiting += 1;
      setTimeout(() => {
        waiting -= 1;
        ready.push({ ...job, attempt: job.attempt + 1 });
        void drain();
      }, delay).unref();
    }
  };

  const pending = () => ready.length + waiting + (sending ? 1 : 0);

  return {
    send(message) {
      if (ready.length + waiting >= MAX_QUEUED) {
        log({ level: "error", msg: "mail dropped", reason: "queue full" });
        return;
      }
      ready.push({ message, attempt: 1 });
      setImmediate(() => void drain());
    },
    pending,
    async flush(timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (pending() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}
