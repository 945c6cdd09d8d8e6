// contentNavigations: every navigation of the account with its item tree, sorted by title.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { NavigationTreeRef, navigationTrees } from "./navigation-type.ts";

builder.queryField("contentNavigations", (t) =>
  t.field({
    type: [NavigationTreeRef],
    description: "The account's navigations with their item trees, sorted by title.",
    args: { account_id: accountArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const navigations = await ctx.db.navigation.findMany({
        where: scope,
        select: { id: true, handle: true, title: true },
        orderBy: [{ title: "asc" }, { id: "asc" }],
      });
      return navigationTrees(ctx, scope, navigations);
    },
  }),
);
