// DELETE /navigations/:navigation_id/items/:id: the item's children go with it (the parent foreign key
// cascades down the subtree).
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { findNavigation } from "../navigations/find.ts";
import { itemIdArg } from "./inputs.ts";
import { itemsChanged } from "./items-changed.ts";
import { lockNavigation } from "./rules.ts";

builder.mutationField("navigationItemDelete", (t) =>
  t.id({
    description: "Deletes the item and everything below it; returns its ID.",
    args: { account_id: accountArg(t.arg), navigation_id: idArg(t.arg, "navigation"), id: itemIdArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      await ctx.db.$transaction((tx) =>
        itemsChanged(ctx, tx, scope, navigation.id, async () => {
          await lockNavigation(tx, scope, navigation.id);
          const { count } = await tx.navigationItem.deleteMany({
            where: { ...scope, navigationId: navigation.id, id: args.id },
          });
          if (count === 0) throw ApiError.notFound("Navigation item");
        }),
      );
      return args.id;
    },
  }),
);
