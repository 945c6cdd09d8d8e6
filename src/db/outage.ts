// A database out of reach is one event, not one error per request: the first request refused for it
// logs "database unreachable" (with the cause), and the process then probes the database every second
// until it answers, which logs "database reachable again" with how long it was out and how many requests
// were refused meanwhile (each answered 503 with Retry-After: schema/errors.ts). Requests refused during
// the outage log nothing more than their request line.

import type { Log } from "../log.ts";
import { oneLine } from "../setup-errors.ts";

/** Seconds a client is told to wait (Retry-After) before it sends again. */
export const RETRY_AFTER_SECONDS = 5;
const PROBE_MS = 1_000;

let probe: (() => Promise<boolean>) | undefined;
let outage: { since: number; refused: number; log: Log; timer: NodeJS.Timeout } | undefined;

/** How this process asks its database whether it answers (db/client.ts: a trivial query). */
export function probeDatabaseWith(answers: () => Promise<boolean>): void {
  probe = answers;
}

/** A request refused because the database cannot be reached: logged if it starts an outage. */
export function databaseRefused(error: unknown, log: Log): void {
  if (outage) {
    outage.refused++;
    return;
  }
  log({ level: "error", msg: "database unreachable", error: oneLine(error) });
  const timer = setInterval(check, PROBE_MS);
  timer.unref();
  outage = { since: Date.now(), refused: 1, log, timer };
}

let checking = false;

async function check(): Promise<void> {
  if (!outage || checking) return;
  checking = true;
  try {
    // Without a probe (a process that opened no database itself) the outage ends after Retry-After.
    const back = probe ? await probe() : Date.now() - outage.since > RETRY_AFTER_SECONDS * 1000;
    if (!back || !outage) return;
    const { since, refused, log, timer } = outage;
    clearInterval(timer);
    outage = undefined;
    log({ level: "info", msg: "database reachable again", down_ms: Date.now() - since, refused });
  } finally {
    checking = false;
  }
}
