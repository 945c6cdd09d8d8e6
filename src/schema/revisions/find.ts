// Reading a record's revisions, inside the caller's account: the record is found first (by the same
// rules as its own read, so another account's record is a 404 here as there), then its revisions.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { listPage } from "../pagination.ts";
import type { RecordType } from "./state.ts";
import { revisionSelect } from "./type.ts";

export interface RevisionsOf {
  scope: AccountScope;
  recordType: RecordType;
  recordId: string;
}

/** One page of the record's revisions, newest first. */
export function listRevisions(ctx: Context, of: RevisionsOf, page: number | null | undefined) {
  const where = { accountId: of.scope.accountId, recordType: of.recordType, recordId: of.recordId };
  return listPage(page, ctx.db.revision.count({ where }), (range) =>
    ctx.db.revision.findMany({ where, orderBy: { number: "desc" }, select: revisionSelect, ...range }),
  );
}

/** The revision `number` of the record with its state; 404 when there is none (never or no longer kept). */
export async function findRevision(ctx: Context, of: RevisionsOf, number: number) {
  const revision = await ctx.db.revision.findFirst({
    where: { accountId: of.scope.accountId, recordType: of.recordType, recordId: of.recordId, number },
    select: { ...revisionSelect, state: true },
  });
  if (!revision) throw ApiError.notFound("Revision");
  return revision;
}
