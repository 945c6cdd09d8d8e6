// GET /collections (sorted by name) and GET /collections/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { listPage, listType } from "../pagination.ts";
import { CollectionRef } from "./type.ts";

const CollectionList = listType("Collection", CollectionRef);

builder.queryField("collections", (t) =>
  t.field({
    type: CollectionList,
    description: "The account's collections, sorted by name.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.collection.count({ where }), (range) =>
        ctx.db.collection.findMany({ ...query, where, orderBy: [{ name: "asc" }, { id: "asc" }], ...range }),
      );
    },
  }),
);

builder.queryField("collection", (t) =>
  t.prismaField({
    type: CollectionRef,
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "collection") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const collection = await ctx.db.collection.findFirst({
        ...query,
        where: { ...scope, ...idOrHandle(args.id, prefixes.collection) },
      });
      if (!collection) throw ApiError.notFound("Collection");
      return collection;
    },
  }),
);
