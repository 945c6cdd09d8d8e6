// POST /assets: an upload, as base64 JSON or as a multipart file the REST layer staged. The checks and
// the storing are shared with every other way an asset's bytes arrive (store.ts).
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { uploadBytes } from "./bytes.ts";
import { AssetCreateInput } from "./inputs.ts";
import { refuseTakenName, storeAsset } from "./store.ts";
import { AssetRef } from "./type.ts";

builder.mutationField("assetCreate", (t) =>
  t.prismaField({
    type: AssetRef,
    description: "Uploads a file. Its bytes come as base64 `data`, or staged from a multipart body (REST).",
    args: { account_id: accountArg(t.arg), input: t.arg({ type: AssetCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { filename, path, content_type: contentType } = args.input;
      const name = { ...scope, path: path ?? "", filename };
      await refuseTakenName(ctx, name);
      const { staged, declaredType } = await uploadBytes(ctx, args.input);
      const id = await storeAsset(ctx, name, staged, {
        field: contentType,
        ...(declaredType && { declared: { type: declaredType, path: "data" } }),
        filenamePath: "filename",
      });
      return ctx.db.asset.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
