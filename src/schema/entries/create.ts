// POST /collections/:collection_id/entries: creates, or updates the entry that already has the handle
// (idempotent create by handle). Concurrent creates of one handle end as one entry: the losers of the
// unique-key race update it instead.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollection } from "../collections/find.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { EntryCreateInput } from "./inputs.ts";
import { EntryCreatePayload } from "./payload.ts";
import { chooseBlueprint, prepareEntry } from "./prepare.ts";
import { insertEntry } from "./save.ts";
import { applyEntryUpdate } from "./update.ts";

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
      const collection = await findCollection(ctx, scope, args.collection_id);
      const { blueprint_handle: blueprintHandle, ...input } = args.input;
      const byHandle = { handle: input.handle };
      const existing = await ctx.db.entry.findFirst({
        where: { ...scope, collectionId: collection.id, ...byHandle },
        select: { id: true },
      });
      let created = false;
      let id: string;
      if (existing) {
        id = await applyEntryUpdate(ctx, scope, collection, byHandle, input);
      } else {
        const blueprint = await chooseBlueprint(ctx, scope, collection, blueprintHandle);
        const prepared = await prepareEntry(ctx, scope, collection, blueprint, input);
        try {
          id = await insertEntry(ctx, scope, collection, input, prepared);
          created = true;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          id = await applyEntryUpdate(ctx, scope, collection, byHandle, input);
        }
      }
      const query = queryFromInfo({ context: ctx, info, path: ["entry"] });
      return { created, entry: await ctx.db.entry.findUniqueOrThrow({ ...query, where: { id } }) };
    },
  }),
);
