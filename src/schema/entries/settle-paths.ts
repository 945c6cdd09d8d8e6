// Paths made from what a write read before another write changed it. An entry created or saved while its
// collection's routing, or its parent's handle, changes computes its path from the old one, and may commit
// after the change's own refresh has run. Checking that inside every entry write would cost each a locked
// read of its collection (a transaction and a row lock per create); instead the change refreshes the paths
// again once such writes are over: after a second (nearly all), and once every request begun before it has
// passed its deadline (REQUEST_TIMEOUT_MS, and SETTLE_MS for a commit begun in time). An entry saved since
// keeps the path its save made, and one the routing has no value for is told in the log and left.
import { SETTLE_MS, unbounded } from "../../db/deadline.ts";
import { log } from "../../log.ts";
import type { Context } from "../context.ts";
import type { Tx } from "../webhooks/outbox.ts";

const SOON_MS = 1_000;

type Unroutable = (handle: string, missing: string) => void;

/** After a write that moved paths has committed: `refresh` again, later, off the request. */
export function settlePathsLater(
  ctx: Context,
  what: string,
  refresh: (tx: Tx, unroutable: Unroutable) => Promise<void>,
): void {
  const db = unbounded(ctx.db);
  const unroutable: Unroutable = (handle, missing) =>
    log({ level: "warn", msg: "path not settled", what, entry: handle, missing: `:${missing}` });
  const run = () =>
    void db
      .$transaction((tx) => refresh(tx, unroutable))
      .catch((error: unknown) => {
        log({ level: "warn", msg: "paths not settled", what, error: String(error) });
      });
  for (const delay of [SOON_MS, ctx.requestTimeoutMs + SETTLE_MS]) setTimeout(run, delay).unref();
}
