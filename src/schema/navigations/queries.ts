// GET /navigations (sorted by title, without items) and GET /navigations/:id (with the item tree).
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, listType } from "../pagination.ts";
import { findNavigation } from "./find.ts";
import { NavigationRef, NavigationWithItemsRef } from "./type.ts";

const NavigationList = listType("Navigation", NavigationRef);

builder.queryField("navigations", (t) =>
  t.field({
    type: NavigationList,
    description: "The account's navigations without their items, sorted by title.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.navigation.count({ where }), (range) =>
        ctx.db.navigation.findMany({ ...query, where, orderBy: [{ title: "asc" }, { id: "asc" }], ...range }),
      );
    },
  }),
);

builder.queryField("navigation", (t) =>
  t.prismaField({
    type: NavigationWithItemsRef,
    description: "One navigation with its item tree in `items`.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "navigation") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findNavigation(ctx, scope, args.id, query);
    },
  }),
);
