// What a delivery attempt leaves: sent; or due again after the retry delay (SMTP_RETRY_DELAY_MS,
// doubling after each failure up to SMTP_RETRY_MAX_DELAY_MS), for 30 attempts (about a day by default) or
// a permanent refusal (5xx), then failed. Sent and failed rows are kept a while as the log.
import type { Db } from "../../db/client.ts";

export interface MailOutcome {
  sent: boolean;
  /** The server refused for good (5xx): no retry. */
  permanent: boolean;
  /** The SMTP server's reply code, when one came. */
  code: number | null;
  error: string | null;
}

type RetrySettings = { retryDelayMs: number; retryMaxDelayMs: number; attempts: number };

export function mailRetryDelay(settings: RetrySettings, attempts: number): number {
  return Math.min(settings.retryMaxDelayMs, settings.retryDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Returns what became of the message: sent, retry (due again after `delayMs`) or failed. */
export async function recordMailAttempt(
  db: Db,
  settings: RetrySettings,
  mail: { id: string; attempts: number },
  outcome: MailOutcome,
): Promise<{ status: "sent" | "retry" | "failed"; attempts: number; delayMs: number }> {
  const attempts = mail.attempts + 1;
  const failed = !outcome.sent && (outcome.permanent || attempts >= settings.attempts);
  const delayMs = mailRetryDelay(settings, attempts);
  await db.mailMessage.update({
    where: { id: mail.id },
    data: {
      attempts,
      status: outcome.sent ? "sent" : failed ? "failed" : "pending",
      lastError: outcome.error?.slice(0, 1000) ?? null,
      ...(!outcome.sent && !failed && { nextAttemptAt: new Date(Date.now() + delayMs) }),
    },
  });
  return { status: outcome.sent ? "sent" : failed ? "failed" : "retry", attempts, delayMs };
}

/** Sent and failed messages older than `keepDays` are dropped (pending ones never are). */
export async function pruneMailLog(db: Db, keepDays: number): Promise<number> {
  const before = new Date(Date.now() - keepDays * 86_400_000);
  const { count } = await db.mailMessage.deleteMany({
    where: { createdAt: { lt: before }, status: { not: "pending" } },
  });
  return count;
}
