// DELETE /navigations/:id: its items go with it (the item rows' foreign key cascades).
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findNavigation } from "./find.ts";

builder.mutationField("navigationDelete", (t) =>
  t.id({
    description: "Deletes the navigation and all of its items; returns its ID.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "navigation") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.id);
      await ctx.db.navigation.deleteMany({ where: { ...scope, id: navigation.id } });
      return navigation.id;
    },
  }),
);
