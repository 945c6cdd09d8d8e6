// GET /assets (newest first) and GET /assets/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, listType, pageSchema } from "../pagination.ts";
import { assetIdArg, findAsset } from "./find.ts";
import { AssetRef } from "./type.ts";

const AssetList = listType("Asset", AssetRef);

builder.queryField("assets", (t) =>
  t.field({
    type: AssetList,
    description: "The account's assets, newest first.",
    args: {
      account_id: accountArg(t.arg),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.asset.count({ where }), (range) =>
        ctx.db.asset.findMany({
          ...query,
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...range,
        }),
      );
    },
  }),
);

builder.queryField("asset", (t) =>
  t.prismaField({
    type: AssetRef,
    args: { account_id: accountArg(t.arg), id: assetIdArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findAsset(ctx, scope, args.id, query);
    },
  }),
);
