// DELETE /collections/:collection_id/entries/:id.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollection } from "../collections/find.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

builder.mutationField("entryDelete", (t) =>
  t.id({
    description: "Deletes the entry and returns its ID.",
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
      await ctx.db.entry.deleteMany({ where: { ...scope, id: entry.id } });
      return entry.id;
    },
  }),
);
