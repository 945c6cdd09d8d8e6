// The server's mail sender: takes due messages from the outbox table (claims: each attempt by exactly
// one process), sends them through SMTP with their stored Message-ID, and records each attempt. It runs
// right after a write that added messages (nudge), when a retry falls due, and every second besides
// (another process's writes, messages left by a process that stopped). A crash, a restart or an SMTP
// outage delays a message; only a crash between the SMTP server's acceptance and the record of it sends
// it again, with the same Message-ID. Nothing here runs inside a request.
import nodemailer from "nodemailer";
import type { Database } from "../db/client.ts";
import type { Log } from "../log.ts";
import { serialRounds } from "../outbox-rounds.ts";
import { type MailOutcome, pruneMailLog, recordMailAttempt } from "../schema/mail/attempt.ts";
import { type ClaimedMail, claimDueMail } from "../schema/mail/claim.ts";
import type { Outbox } from "./outbox.ts";
import type { MailSettings } from "./settings.ts";

const BATCH = 20;
const PARALLEL = 4;
const POLL_MS = 1_000;
const PRUNE_EVERY_MS = 3_600_000;
const LOG_KEEP_DAYS = 30;
/** A write's transaction commits a moment after it nudges: the sender looks just after. */
const NUDGE_DELAY_MS = 20;
/** Longer than an attempt may take (connection, greeting and socket timeouts below). */
const LEASE_MS = 120_000;

export interface MailSender extends Outbox {
  start(): void;
  /** Stops taking messages; the attempts in flight get up to `timeoutMs` (one cut short is retried later). */
  stop(timeoutMs: number): Promise<void>;
}

export function createMailSender(
  database: Database,
  settings: MailSettings & { url: string },
  log: Log,
): MailSender {
  const transport = nodemailer.createTransport({
    url: settings.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  let lastPrune = 0;

  async function send(mail: ClaimedMail): Promise<MailOutcome> {
    try {
      await transport.sendMail({
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
      });
      return { sent: true, permanent: false, code: null, error: null };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const permanent = code !== undefined && code >= 500;
      return { sent: false, permanent, code: code ?? null, error: String(error) };
    }
  }

  async function attempt(mail: ClaimedMail) {
    const outcome = await send(mail);
    const result = await recordMailAttempt(database.db, settings, mail, outcome);
    // Never the address: log lines name no one.
    const fields = { attempt: result.attempts, smtp_code: outcome.code };
    if (result.status === "sent") log({ level: "info", msg: "mail sent", attempt: result.attempts });
    else if (result.status === "failed") log({ level: "error", msg: "mail dropped", ...fields });
    else {
      log({ level: "warn", msg: "mail retry", ...fields, delay_ms: result.delayMs });
      rounds.later(result.delayMs + NUDGE_DELAY_MS);
    }
  }

  async function round() {
    for (;;) {
      const due = await claimDueMail(database, BATCH, LEASE_MS);
      for (let start = 0; start < due.length; start += PARALLEL)
        await Promise.all(due.slice(start, start + PARALLEL).map(attempt));
      if (due.length < BATCH || rounds.stopped) break;
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneMailLog(database.db, LOG_KEEP_DAYS);
    }
  }

  const rounds = serialRounds(round, (error) =>
    log({ level: "error", msg: "mail sending failed", error: String(error) }),
  );

  return {
    enabled: true,
    nudge() {
      rounds.later(NUDGE_DELAY_MS);
    },
    start() {
      rounds.start(POLL_MS);
    },
    async stop(timeoutMs) {
      await rounds.stop(timeoutMs);
      transport.close();
    },
  };
}
