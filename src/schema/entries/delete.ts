// DELETE /collections/:collection_id/entries/:id: the entry goes to the trash (src/schema/trash/), with
// the links a restore puts back.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollection } from "../collections/find.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { trashEntry } from "../trash/entry.ts";

builder.mutationField("entryDelete", (t) =>
  t.id({
    description: "Deletes the entry into the trash and returns its ID.",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const collection = await findCollection(ctx, scope, args.collection_id);
      const entry = await ctx.db.entry.findFirst({
        where: { ...scope, collectionId: collection.id, ...idOrHandle(args.id, prefixes.entry) },
        select: { id: true },
      });
      if (!entry) throw ApiError.notFound("Entry");
      await trashEntry(ctx, scope, entry.id);
      return entry.id;
    },
  }),
);
