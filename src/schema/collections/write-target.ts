// The collection an entry is written to, with its blueprints: kept as a lookup of the account's structure
// (entries are written far more often), so that a create or an update reads neither.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { findCollection } from "./find.ts";

export function findWriteTarget(ctx: Context, scope: AccountScope, collectionId: string) {
  return ctx.keep(
    `write target\u0000${scope.accountId}\u0000${collectionId}`,
    () =>
      findCollection(ctx, scope, collectionId, {
        blueprints: {
          where: scope,
          orderBy: { id: "asc" },
          select: { id: true, handle: true, fields: true },
        },
      }),
    {
      size: (found) => JSON.stringify(found).length * 2,
      lookup: { account: scope.accountId, of: "structure" },
    },
  );
}

export type WriteTarget = Awaited<ReturnType<typeof findWriteTarget>>;
