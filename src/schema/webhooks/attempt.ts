// What an attempt leaves in the log: delivered on a 2xx; otherwise due again after the retry delay
// (WEBHOOK_RETRY_BASE_MS, doubling after each failure) until WEBHOOK_MAX_ATTEMPTS, then failed.
import type { WebhookSettings } from "../../config.ts";
import type { Db } from "../../db/client.ts";

export interface Outcome {
  /** The receiver's HTTP status; null when none came (refused, timed out, unreachable). */
  status: number | null;
  /** Why it failed: the error, or the start of a non-2xx answer's body. */
  error: string | null;
}

export const succeeded = (outcome: Outcome) =>
  outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** The delay after the `attempts`-th failure. */
export function retryDelay(settings: WebhookSettings, attempts: number): number {
  return settings.retryBaseMs * 2 ** Math.max(0, attempts - 1);
}

export async function recordAttempt(
  db: Db,
  settings: WebhookSettings,
  delivery: { id: string; attempts: number },
  body: string,
  outcome: Outcome,
): Promise<void> {
  const attempts = delivery.attempts + 1;
  const done = succeeded(outcome);
  const failed = !done && attempts >= settings.maxAttempts;
  const now = Date.now();
  await db.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      body,
      attempts,
      status: done ? "delivered" : failed ? "failed" : "pending",
      lastStatus: outcome.status,
      lastError: done ? null : (outcome.error?.slice(0, 1000) ?? null),
      ...(!done && !failed && { nextAttemptAt: new Date(now + retryDelay(settings, attempts)) }),
    },
  });
}

/** Delivered and failed deliveries older than the log's life are dropped (pending ones never are). */
export async function pruneDeliveryLog(db: Db, keepDays: number): Promise<number> {
  const before = new Date(Date.now() - keepDays * 86_400_000);
  const { count } = await db.webhookDelivery.deleteMany({
    where: { createdAt: { lt: before }, status: { not: "pending" } },
  });
  return count;
}
