// A job whose process stopped (killed, crashed, restarted) before it ended leaves its row `running`: its
// import rolled back with the process, so nothing was written. The process running a job touches the row
// every HEARTBEAT_MS (jobs.ts); a process that does not run it and finds the row untouched for longer than
// the staleness answers it failed, and records that with a compare-and-set on the updatedAt it read, so
// every transport and process answers the same afterwards and a job touched meanwhile is left alone.
import type { DbProvider } from "../../db/client.ts";
import type { Context } from "../context.ts";
import { TRANSACTION } from "./index.ts";

/** How often the process running a job touches its row (phase and progress written too). */
export const HEARTBEAT_MS = 10_000;

/** How long a running row may go untouched: six heartbeats missed, whatever the machine's load. */
export const STALE_AFTER_MS = 60_000;

/**
 * How old a running row's updatedAt must be before it counts as stopped. On SQLite the heartbeat waits
 * while the import's own write transaction is open, which Prisma ends at its timeout (TRANSACTION, 30
 * minutes): a process that does not run the job (the CLI, a second process on the same file) may find the
 * row untouched that long while the job still runs, so the transaction's timeout is added there. On
 * PostgreSQL the heartbeat writes on another connection while the transaction is open.
 */
export function staleAfterMs(provider: DbProvider): number {
  return provider === "sqlite" ? STALE_AFTER_MS + TRANSACTION.timeout : STALE_AFTER_MS;
}

/** The stopped job's error: a 503 as a request cut short is, and all or nothing, nothing written. */
export const STOPPED_ERROR = {
  status: 503,
  error: "The server running this import stopped before it ended; nothing was written",
  details: [],
};

interface RunningRow {
  id: string;
  status: string;
  updatedAt: Date;
}

/** Whether a row read by a process that does not run it is a job whose process stopped. */
export function hasStopped(ctx: Pick<Context, "provider">, row: RunningRow, now = Date.now()): boolean {
  return row.status === "running" && now - row.updatedAt.getTime() > staleAfterMs(ctx.provider);
}

/**
 * Records the stopped job as failed, unless its row changed since it was read (a heartbeat: it runs;
 * another reader: already recorded). Whether it was recorded here.
 */
export async function recordStopped(ctx: Context, row: RunningRow): Promise<boolean> {
  const { count } = await ctx.db.importJob.updateMany({
    where: { id: row.id, status: "running", updatedAt: row.updatedAt },
    data: { status: "failed", error: STOPPED_ERROR, finishedAt: new Date() },
  });
  if (count > 0) ctx.refresh();
  return count > 0;
}
