// Recording a revision in the same transaction as the write it records. A record's first revision is
// number 1 (its ID is new); a later one reads the last number (an indexed lookup) and inserts the next.
// Concurrent writers of one record are ordered by the write itself (the compare-and-set on `version`,
// the template row's update lock), so two rarely pick one number; when they do, the unique key
// (recordId, number) refuses the second and it says so with RevisionClash: its caller retries the write.
import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import type { RecordType } from "./state.ts";

type Tx = Pick<Db, "revision">;

export interface Recording {
  accountId: string;
  recordType: RecordType;
  recordId: string;
  /** The token that made the change: its ID, never its secret. */
  tokenId: string | null;
  state: Prisma.InputJsonValue;
  at: Date;
}

/** Another writer took the number: the write is rolled back and must be tried again. */
export class RevisionClash extends Error {
  constructor() {
    super("Another write recorded the same revision number");
  }
}

/** REVISIONS_KEEP=0 with REVISIONS_KEEP_DAYS=0 turns recording off (nothing would be kept). */
export function recordsRevisions(ctx: Pick<Context, "history">): boolean {
  return ctx.history.revisionsKeep > 0 || ctx.history.revisionsKeepDays > 0;
}

/** Who makes the change (the request's viewer is read once and kept, so this costs nothing more). */
export async function revisionAuthor(ctx: Context): Promise<string | null> {
  return (await ctx.viewer())?.tokenId ?? null;
}

/** The row of a new record's first revision, for a write that inserts it beside the record. */
export function firstRevision(recording: Recording): Prisma.RevisionUncheckedCreateInput {
  return {
    id: newId(prefixes.revision),
    accountId: recording.accountId,
    recordType: recording.recordType,
    recordId: recording.recordId,
    number: 1,
    tokenId: recording.tokenId,
    state: recording.state,
    createdAt: recording.at,
  };
}

/**
 * Inserts the record's next revision inside `tx` and returns its number: `known` when the writer knows it
 * (an entry's is its version after the write, plus one), else one more than the last one recorded.
 */
export async function recordRevision(tx: Tx, recording: Recording, known?: number): Promise<number> {
  const last =
    known === undefined
      ? await tx.revision.findFirst({
          where: { recordId: recording.recordId },
          orderBy: { number: "desc" },
          select: { number: true },
        })
      : undefined;
  const number = known ?? (last?.number ?? 0) + 1;
  try {
    // createMany: nothing is read back (a create returns the row, its whole state parsed again).
    await tx.revision.createMany({ data: [{ ...firstRevision(recording), number }] });
  } catch (error) {
    throw isUniqueViolation(error) ? new RevisionClash() : error;
  }
  return number;
}

/** Runs `write` again while another writer's revision took its number (at most a few times). */
export async function retryOnClash<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof RevisionClash) || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}
