// An import answered 202 (docs/export-format.md, Import): it goes on after the answer, as a job whose
// state is a row of ImportJob, so that any server process can tell it: running (in which phase, how many
// entries of how many), then succeeded with the report the synchronous answer would have been, or failed
// with that answer's status and body. Still all or nothing: the job is the same importSite.
// While it runs, the process running it answers from its own memory too: on SQLite the import's write
// transaction holds the connection, and a read of the row would wait for the commit.
// It touches the row on a heartbeat meanwhile: a row left running by a process that stopped is answered
// failed by the others once it is stale (stopped-jobs.ts).
import { unbounded } from "../../db/deadline.ts";
import { log } from "../../log.ts";
import { accountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { type ImportOptions, type ImportPhase, type ImportSource, importSite } from "./index.ts";
import type { ImportReport } from "./run.ts";
import { HEARTBEAT_MS, hasStopped, recordStopped } from "./stopped-jobs.ts";

export type JobStatus = "running" | "succeeded" | "failed";

/** A job as every transport answers it. */
export interface ImportJobView {
  id: string;
  status: JobStatus;
  dry_run: boolean;
  phase: ImportPhase;
  progress: { done: number; total: number };
  report: ImportReport | null;
  error: { status: number; error: string; details: unknown[] } | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** How often a running job's progress is written (it is in this process's memory meanwhile). */
const PROGRESS_WRITE_MS = 500;

/** Jobs running in this process, by ID. */
const running = new Map<string, { accountId: string; view: ImportJobView }>();

/**
 * Starts the import as a job and answers the job as it begins. `release` runs once the job has ended
 * (the staged body it reads is discarded then, not when the request ends).
 */
export async function startImportJob(
  ctx: Context,
  accountId: string,
  source: ImportSource,
  options: Pick<ImportOptions, "dryRun">,
  release: () => Promise<void> = async () => {},
): Promise<ImportJobView> {
  await accountScope(ctx, accountId, "write");
  const db = unbounded(ctx.db);
  const row = await db.importJob.create({
    data: {
      id: newId(prefixes.importJob),
      accountId,
      status: "running",
      dryRun: options.dryRun ?? false,
      phase: "reading",
    },
  });
  const view = viewOf(row);
  running.set(view.id, { accountId, view });
  // The request's context without its deadline: the job outlives the request.
  const jobCtx: Context = { ...ctx, db, deadline: undefined };
  const progress = progressWriter(jobCtx, view);
  const heartbeat = setInterval(progress.touch, HEARTBEAT_MS).unref();
  void (async () => {
    let outcome: Pick<ImportJobView, "status" | "report" | "error">;
    try {
      const report = await importSite(jobCtx, accountId, source, { ...options, onProgress: progress.heard });
      outcome = { status: "succeeded", report, error: null };
    } catch (error) {
      outcome = { status: "failed", report: null, error: failure(error) };
    }
    clearInterval(heartbeat);
    try {
      await progress.settled();
      const finishedAt = new Date();
      // Whatever the row says now: a job another process took for stopped still ends as it did.
      await db.importJob.update({
        where: { id: view.id },
        data: {
          status: outcome.status,
          report: outcome.report as object | undefined,
          error: (outcome.error ?? undefined) as object | undefined,
          finishedAt,
          ...(outcome.report && { done: view.progress.total }),
        },
      });
      jobCtx.refresh();
    } catch (error) {
      log({
        level: "error",
        msg: "an import job's end could not be recorded",
        job: view.id,
        err: String(error),
      });
    } finally {
      running.delete(view.id);
      await release().catch(() => {});
    }
  })();
  return { ...view };
}

/**
 * The account's job. A running one is not kept with the request's answer: its progress is in the memory
 * of the process running it, and when it has stopped is the clock's to say, neither a change of data.
 */
export async function readImportJob(ctx: Context, accountId: string, id: string): Promise<ImportJobView> {
  const view = await jobView(ctx, accountId, id);
  if (view.status === "running") ctx.answerVaries = true;
  return view;
}

/** The account's job, from this process's memory while it runs here, else from the database. */
async function jobView(ctx: Context, accountId: string, id: string): Promise<ImportJobView> {
  const scope = await accountScope(ctx, accountId, "read");
  const here = running.get(id);
  if (here && here.accountId === accountId) return { ...here.view };
  const row = await ctx.db.importJob.findFirst({ where: { ...scope, id } });
  if (!row) throw new ApiError(404, "Import job not found");
  if (!hasStopped(ctx, row)) return viewOf(row);
  // Read again whether recorded here or not: a heartbeat or another reader changed the row meanwhile.
  await recordStopped(ctx, row);
  const now = await ctx.db.importJob.findFirst({ where: { ...scope, id } });
  if (!now) throw new ApiError(404, "Import job not found");
  return viewOf(now);
}

interface JobRow {
  id: string;
  status: string;
  dryRun: boolean;
  phase: string;
  done: number;
  total: number;
  report: unknown;
  error: unknown;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

function viewOf(row: JobRow): ImportJobView {
  return {
    id: row.id,
    status: row.status as JobStatus,
    dry_run: row.dryRun,
    phase: row.phase as ImportPhase,
    progress: { done: row.done, total: row.total },
    report: (row.report ?? null) as ImportReport | null,
    error: (row.error ?? null) as ImportJobView["error"],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The failed import's answer, as the synchronous one would have been (5xx details are not told). */
function failure(error: unknown): NonNullable<ImportJobView["error"]> {
  if (error instanceof ApiError && error.status < 500)
    return { status: error.status, error: error.message, details: error.details };
  log({
    level: "error",
    msg: "an import job failed",
    err: error instanceof Error ? error.stack : String(error),
  });
  return { status: 500, error: "Internal server error", details: [] };
}

/**
 * Progress as the import tells it: kept in the view at once, written at most every PROGRESS_WRITE_MS
 * and one write at a time (on SQLite a write waits for the import's own transaction: later progress
 * is then written once it ends). A write touches a running job only, never one that has ended. `touch`
 * (the heartbeat) writes the progress as it is, with the row's updatedAt, unless a write is under way:
 * a heartbeat waiting on SQLite's transaction is one write, never a queue of them.
 */
function progressWriter(ctx: Context, view: ImportJobView) {
  let writing: Promise<void> | undefined;
  let writtenAt = 0;
  let writtenPhase = view.phase;
  const write = () => {
    writtenAt = Date.now();
    writtenPhase = view.phase;
    const { phase, progress } = view;
    writing = ctx.db.importJob
      .updateMany({
        where: { id: view.id, status: "running" },
        data: { phase, done: progress.done, total: progress.total, updatedAt: new Date() },
      })
      .then(
        () => undefined,
        (error: unknown) =>
          log({
            level: "warn",
            msg: "an import job's progress was not written",
            job: view.id,
            err: String(error),
          }),
      )
      .finally(() => {
        writing = undefined;
      });
  };
  return {
    heard(phase: ImportPhase, done: number, total: number) {
      const now = new Date();
      view.phase = phase;
      view.progress = { done, total };
      view.updated_at = now.toISOString();
      if (writing) return;
      if (phase !== writtenPhase || Date.now() - writtenAt >= PROGRESS_WRITE_MS) write();
    },
    touch() {
      if (!writing) write();
    },
    async settled() {
      while (writing) await writing;
    },
  };
}
