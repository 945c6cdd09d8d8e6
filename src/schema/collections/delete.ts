// DELETE /collections/:id: its entries go with it; its blueprints stay, free to attach elsewhere.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { beforeDelete } from "../webhooks/outbox.ts";
import { findCollection } from "./find.ts";

builder.mutationField("collectionDelete", (t) =>
  t.id({
    description: "Deletes the collection and all of its entries; returns its ID.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "collection") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const collection = await findCollection(ctx, scope, args.id);
      const event = { type: "collection.deleted", kind: "collection", id: collection.id } as const;
      // Its entries go without events of their own: the collection's event tells of them.
      await ctx.db.$transaction(async (tx) => {
        const deleted = await beforeDelete(ctx, tx, scope.accountId, event);
        await tx.entry.deleteMany({ where: { ...scope, collectionId: collection.id } });
        await tx.collection.deleteMany({ where: { ...scope, id: collection.id } });
        await deleted();
      });
      return collection.id;
    },
  }),
);
