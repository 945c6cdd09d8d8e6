// DELETE /assets/:id: the row, then the file (a failure in between leaves unreferenced bytes, never a
// row without them).
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { assetIdArg, findAsset } from "./find.ts";

builder.mutationField("assetDelete", (t) =>
  t.id({
    description: "Deletes the asset and its file; returns its ID.",
    args: { account_id: accountArg(t.arg), id: assetIdArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const asset = await findAsset(ctx, scope, args.id);
      const { count } = await ctx.db.asset.deleteMany({ where: { ...scope, id: asset.id } });
      if (count > 0) await ctx.storage.remove(scope.accountId, asset.id);
      return asset.id;
    },
  }),
);
