// POST /collections/:collection_id/entries: creates, or updates the entry that already has the handle
// (idempotent create by handle). Concurrent creates of one handle end as one entry: the losers of the
// unique-key race update it instead.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findWriteTarget } from "../collections/write-target.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { requireHandleStyle } from "../handles.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { EntryCreateInput } from "./inputs.ts";
import { EntryCreatePayload } from "./payload.ts";
import { chooseBlueprint, prepareEntry } from "./prepare.ts";
import { insertEntry } from "./save.ts";
import { applyEntryUpdate } from "./update.ts";

async function handleTaken(ctx: Context, scope: AccountScope, collectionId: string, handle: string) {
  const found = await ctx.db.entry.findFirst({
    where: { ...scope, collectionId, handle },
    select: { id: true },
  });
  return found !== null;
}

builder.mutationField("entryCreate", (t) =>
  t.field({
    type: EntryCreatePayload,
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      input: t.arg({ type: EntryCreateInput, required: true }),
    },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { blueprint_handle: blueprintHandle, ...input } = args.input;
      const target = await findWriteTarget(ctx, scope, args.collection_id);
      const { blueprints, ...collection } = target;
      const query = queryFromInfo({ context: ctx, info, path: ["entry"] });
      const update = async () => {
        const id = await applyEntryUpdate(ctx, scope, target, { handle: input.handle }, input);
        return { created: false, entry: await ctx.db.entry.findUniqueOrThrow({ ...query, where: { id } }) };
      };
      // Most creates are new handles: whether the handle is taken is asked only when the create cannot
      // go on (an entry that exists is updated by other rules) or the insert hits the unique key.
      try {
        // Refused only when it would be created: an entry stored under the handle is updated below.
        requireHandleStyle(ctx, "handle", input.handle);
        const blueprint = chooseBlueprint(collection, blueprints, blueprintHandle);
        const prepared = await prepareEntry(ctx, scope, collection, blueprint, input);
        const held = { collection, blueprint: blueprint.row };
        const entry = await insertEntry(ctx, scope, collection, input, prepared, query, held);
        return { created: true, entry };
      } catch (error) {
        if (isUniqueViolation(error)) return update();
        if (error instanceof ApiError && (await handleTaken(ctx, scope, collection.id, input.handle))) {
          return update();
        }
        throw error;
      }
    },
  }),
);
