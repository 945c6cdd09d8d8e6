// GET /globals (sorted by name) and GET /globals/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, listType } from "../pagination.ts";
import { findGlobal } from "./find.ts";
import { GlobalRef } from "./type.ts";

const GlobalList = listType("Global", GlobalRef);

builder.queryField("globals", (t) =>
  t.field({
    type: GlobalList,
    description: "The account's globals, sorted by name.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.global.count({ where }), (range) =>
        ctx.db.global.findMany({ ...query, where, orderBy: [{ name: "asc" }, { id: "asc" }], ...range }),
      );
    },
  }),
);

builder.queryField("global", (t) =>
  t.prismaField({
    type: GlobalRef,
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "global") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findGlobal(ctx, scope, args.id, query);
    },
  }),
);
