// contentNavigation: one navigation by handle with its item tree, or null.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { NavigationTreeRef, navigationTrees } from "./navigation-type.ts";

builder.queryField("contentNavigation", (t) =>
  t.field({
    type: NavigationTreeRef,
    nullable: true,
    description: "One navigation by handle with its item tree (null when there is none).",
    args: { account_id: accountArg(t.arg), handle: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const navigation = await ctx.db.navigation.findFirst({
        where: { ...scope, handle: args.handle },
        select: { id: true, handle: true, title: true },
      });
      if (!navigation) return null;
      const [tree] = await navigationTrees(ctx, scope, [navigation]);
      return tree ?? null;
    },
  }),
);
