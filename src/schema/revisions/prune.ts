// Retention (REVISIONS_KEEP, REVISIONS_KEEP_DAYS): a record keeps its newest `revisionsKeep` revisions
// and every revision younger than `revisionsKeepDays`. The older ones are deleted after the write that
// went past them, off the request path: the request never waits for it, and a failed prune is logged
// and done by the record's next write.
import { unbounded } from "../../db/deadline.ts";
import { log } from "../../log.ts";
import type { Context } from "../context.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** After revision `number` of `recordId` was committed. */
export function pruneLater(ctx: Context, recordId: string, number: number): void {
  const { revisionsKeep: keep, revisionsKeepDays: days } = ctx.history;
  // Every revision of the record is among its newest `keep`.
  if (number <= keep) return;
  // Off the request: not cut short by its deadline (db/deadline.ts).
  const db = unbounded(ctx.db);
  setImmediate(() => {
    const cutoff = new Date(Date.now() - days * DAY_MS);
    db.revision
      .deleteMany({ where: { recordId, number: { lte: number - keep }, createdAt: { lt: cutoff } } })
      .catch((error: unknown) => {
        log({ level: "error", msg: "revision prune failed", record_id: recordId, error: String(error) });
      });
  });
}
