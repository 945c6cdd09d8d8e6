// PUT/PATCH /collections/:id: only the sent fields change. A new routing regenerates the path of every
// entry it finds, in the same transaction, and again once entries written meanwhile from the old routing
// are in (settle-paths.ts).
import type { Collection } from "../../generated/sqlite/client.ts";
import { type AccountScope, accountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { refreshPaths } from "../entries/paths.ts";
import { settlePathsLater } from "../entries/settle-paths.ts";
import { ApiError, Problems } from "../errors.ts";
import { requireHandleStyle } from "../handles.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { recordEvents } from "../webhooks/outbox.ts";
import { findCollection } from "./find.ts";
import { type CollectionUpdate, CollectionUpdateInput } from "./inputs.ts";
import { checkCollection, collectionColumns } from "./rules.ts";
import { CollectionRef } from "./type.ts";

export async function applyCollectionUpdate(
  ctx: Context,
  scope: AccountScope,
  stored: Collection,
  input: CollectionUpdate,
): Promise<void> {
  if (input.handle != null && input.handle !== stored.handle) requireHandleStyle(ctx, "handle", input.handle);
  try {
    const pathsChange = await ctx.db.$transaction(async (tx) => {
      // The row as this write finds it: another may have changed its routing since `stored` was read.
      await lockAccount(ctx, tx, scope.accountId);
      const current = await tx.collection.findFirst({
        where: { id: stored.id },
        select: { routing: true, rootRouting: true },
      });
      if (!current) throw ApiError.notFound("Collection");
      const routing = input.routing ?? current.routing;
      const rootRouting = input.root_routing ?? current.rootRouting;
      const problems = new Problems();
      await checkCollection(tx, scope, { id: stored.id, routing, rootRouting }, input, problems);
      problems.throwIfAny();
      const pathsChange = routing !== current.routing || rootRouting !== current.rootRouting;
      await tx.collection.update({ where: { id: stored.id }, data: collectionColumns(input) });
      if (pathsChange) await refreshPaths(tx, stored.id);
      const event = { type: "collection.updated", kind: "collection", id: stored.id } as const;
      await recordEvents(ctx, tx, scope.accountId, [event]);
      return pathsChange;
    });
    if (pathsChange)
      settlePathsLater(ctx, `collection ${stored.id}`, (tx, unroutable) =>
        refreshPaths(tx, stored.id, undefined, unroutable),
      );
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.invalid("handle", "is already used by another collection");
    throw error;
  }
}

builder.mutationField("collectionUpdate", (t) =>
  t.prismaField({
    type: CollectionRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "collection"),
      input: t.arg({ type: CollectionUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findCollection(ctx, scope, args.id);
      await applyCollectionUpdate(ctx, scope, stored, args.input);
      return ctx.db.collection.findUniqueOrThrow({ ...query, where: { id: stored.id } });
    },
  }),
);
