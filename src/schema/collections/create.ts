// POST /collections: creates, or updates the collection that already has the handle (idempotent create
// by handle; `blueprint_handle` and `blueprint` then do not apply). The collection and its blueprint are
// written in one transaction.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { type AccountScope, accountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { ApiError, Problems } from "../errors.ts";
import { requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { recordEvents } from "../webhooks/outbox.ts";
import { planBlueprint, unowned } from "./attach-blueprint.ts";
import { type CollectionCreate, CollectionCreateInput } from "./inputs.ts";
import { CollectionCreatePayload } from "./payload.ts";
import { checkCollection, collectionColumns } from "./rules.ts";
import { applyCollectionUpdate } from "./update.ts";

async function insertCollection(ctx: Context, scope: AccountScope, input: CollectionCreate): Promise<string> {
  requireHandleStyle(ctx, "handle", input.handle);
  // The blueprint's problems are told with the collection's, which come first.
  const blueprintProblems = new Problems();
  const blueprint = await planBlueprint(ctx, scope, input, blueprintProblems);
  const id = newId(prefixes.collection);
  const { name, handle, routing } = input;
  await ctx.db.$transaction(async (tx) => {
    await lockAccount(ctx, tx, scope.accountId);
    const problems = new Problems();
    await checkCollection(tx, scope, { routing, rootRouting: input.root_routing ?? false }, input, problems);
    problems.list.push(...blueprintProblems.list);
    problems.throwIfAny();
    await tx.collection.create({
      data: { ...collectionColumns(input), ...scope, id, name, handle, routing },
    });
    if (blueprint?.attach) {
      const { count } = await tx.blueprint.updateMany({
        where: { ...scope, id: blueprint.attach, ...unowned },
        data: { collectionId: id },
      });
      if (count === 0)
        throw ApiError.invalid("blueprint_handles", "the blueprint already belongs to another owner");
    }
    if (blueprint?.create) {
      await tx.blueprint.create({
        data: { ...blueprint.create, ...scope, id: newId(prefixes.blueprint), collectionId: id },
      });
    }
    await recordEvents(ctx, tx, scope.accountId, [{ type: "collection.created", kind: "collection", id }]);
  });
  return id;
}

builder.mutationField("collectionCreate", (t) =>
  t.field({
    type: CollectionCreatePayload,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: CollectionCreateInput, required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const byHandle = { accountId_handle: { ...scope, handle: args.input.handle } };
      let existing = await ctx.db.collection.findUnique({ where: byHandle });
      if (!existing) {
        try {
          const id = await insertCollection(ctx, scope, args.input);
          const query = queryFromInfo({ context: ctx, info, path: ["collection"] });
          return {
            created: true,
            collection: await ctx.db.collection.findUniqueOrThrow({ ...query, where: { id } }),
          };
        } catch (error) {
          // A concurrent POST of the same handle won: this one becomes the update it would have been a
          // moment later. That includes a 422 on the inline blueprint the winner just took.
          const lostRace = isUniqueViolation(error) || (error instanceof ApiError && error.status === 422);
          if (!lostRace) throw error;
          existing = await ctx.db.collection.findUnique({ where: byHandle });
          if (!existing) throw error;
        }
      }
      const { blueprint_handle: _attach, blueprint: _inline, ...settings } = args.input;
      await applyCollectionUpdate(ctx, scope, existing, settings);
      const query = queryFromInfo({ context: ctx, info, path: ["collection"] });
      return {
        created: false,
        collection: await ctx.db.collection.findUniqueOrThrow({ ...query, where: { id: existing.id } }),
      };
    },
  }),
);
