// The server's webhook dispatcher: takes due deliveries (claim.ts: each attempt by exactly one process),
// sends them a few at a time, and records each attempt. It runs right after a write that added
// deliveries (nudge), and every WEBHOOK_POLL_MS besides: retries fall due, another process's writes,
// scheduled entries going live (sweepScheduled), and deliveries left by a process that stopped. Once an
// hour, old log rows are pruned. Nothing here runs inside a request.
import type { WebhookSettings } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Log } from "../log.ts";
import { serialRounds } from "../outbox-rounds.ts";
import { type ContextDeps, createContext } from "../schema/context.ts";
import { pruneDeliveryLog, recordAttempt } from "../schema/webhooks/attempt.ts";
import { type Claimed, claimDue } from "../schema/webhooks/claim.ts";
import type { WebhookDispatch } from "../schema/webhooks/outbox.ts";
import { sweepScheduled } from "../schema/webhooks/scheduled.ts";
import { eventBody, sendDelivery } from "./send.ts";

const BATCH = 20;
const PARALLEL = 8;
const PRUNE_EVERY_MS = 3_600_000;
/** A write's transaction commits a moment after it nudges: the dispatcher looks just after. */
const NUDGE_DELAY_MS = 20;
/** Shutdown has 10 s for everything: attempts still running after this are left to their lease. */
const STOP_WAIT_MS = 3_000;

export interface Dispatcher extends WebhookDispatch {
  start(deps: ContextDeps): void;
  stop(): Promise<void>;
}

export function createDispatcher(
  database: Database,
  settings: WebhookSettings & { allowPrivate: boolean },
  log: Log,
): Dispatcher {
  let deps: ContextDeps | undefined;
  let lastPrune = 0;
  // A lease outlives an attempt: no other process takes the delivery while this one may still send it.
  const leaseMs = settings.timeoutMs + 30_000;

  async function attempt(delivery: Claimed) {
    const body = eventBody(delivery);
    const outcome = await sendDelivery(delivery, body, settings);
    await recordAttempt(database.db, settings, delivery, body, outcome);
  }

  async function round() {
    if (!deps) return;
    const ctx = createContext({ ...deps, reads: undefined }, { headers: new Headers() });
    await sweepScheduled(ctx);
    for (;;) {
      const due = await claimDue(database, BATCH, leaseMs);
      for (let start = 0; start < due.length; start += PARALLEL)
        await Promise.all(due.slice(start, start + PARALLEL).map(attempt));
      if (due.length < BATCH || rounds.stopped) break;
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneDeliveryLog(database.db, settings.logKeepDays);
    }
  }

  const rounds = serialRounds(round, (error) =>
    log({ level: "error", msg: "webhook dispatch failed", error: String(error) }),
  );

  return {
    nudge() {
      rounds.later(NUDGE_DELAY_MS);
    },
    start(given) {
      deps = given;
      rounds.start(settings.pollMs);
    },
    /** Stops taking deliveries; attempts in flight get a moment, and one cut short is retried later. */
    stop: () => rounds.stop(STOP_WAIT_MS),
  };
}
