// DELETE /assets/:id: the asset goes to the trash; its file stays until the trash item is purged
// (src/schema/trash/purge.ts), so a restore serves the same bytes again.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { trashAsset } from "../trash/asset.ts";
import { assetIdArg, findAsset } from "./find.ts";

builder.mutationField("assetDelete", (t) =>
  t.id({
    description: "Deletes the asset into the trash (its file is kept until purged); returns its ID.",
    args: { account_id: accountArg(t.arg), id: assetIdArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const asset = await findAsset(ctx, scope, args.id);
      await trashAsset(ctx, scope, asset.id);
      return asset.id;
    },
  }),
);
