// PUT/PATCH /assets/:id: a rename or move (`filename`, `path`; `path` null or "" is the root). Only the
// row changes: the bytes are stored by ID.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { assetIdArg, findAsset } from "./find.ts";
import { AssetUpdateInput } from "./inputs.ts";
import { nameTaken } from "./store.ts";
import { AssetRef } from "./type.ts";

builder.mutationField("assetUpdate", (t) =>
  t.prismaField({
    type: AssetRef,
    args: {
      account_id: accountArg(t.arg),
      id: assetIdArg(t.arg),
      input: t.arg({ type: AssetUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findAsset(ctx, scope, args.id);
      const filename = args.input.filename ?? stored.filename;
      const path = args.input.path === undefined ? stored.path : (args.input.path ?? "");
      if (filename !== stored.filename || path !== stored.path) {
        try {
          await ctx.db.asset.update({ where: { id: stored.id }, data: { filename, path } });
        } catch (error) {
          throw isUniqueViolation(error) ? nameTaken() : error;
        }
      }
      return ctx.db.asset.findUniqueOrThrow({ ...query, where: { id: stored.id } });
    },
  }),
);
