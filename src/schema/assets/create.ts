// POST /assets: an upload, as base64 JSON or as a multipart file the REST layer staged. The file is put
// in place before the row is written, and removed again when the row cannot be: no asset row ever lacks
// its bytes. A path and filename already taken in the account is a 422 on `filename`; an image or PDF
// whose bytes are not of its type a 422 on what named the type (signatures.ts).
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { uploadBytes } from "./bytes.ts";
import { contentTypeFor } from "./content-types.ts";
import { AssetCreateInput } from "./inputs.ts";
import { SIGNATURE_BYTES, signatureProblem } from "./signatures.ts";
import { AssetRef } from "./type.ts";

export const nameTaken = () =>
  ApiError.invalid("filename", "an asset with this path and filename already exists");

/** What named the type: the content_type field, a data: URL's type, else the filename's extension. */
function typeSource(type: string, field: string | null | undefined, dataUrl: string | undefined): string {
  if (field && type === field) return "content_type";
  return dataUrl && type === dataUrl ? "data" : "filename";
}

builder.mutationField("assetCreate", (t) =>
  t.prismaField({
    type: AssetRef,
    description: "Uploads a file. Its bytes come as base64 `data`, or staged from a multipart body (REST).",
    args: { account_id: accountArg(t.arg), input: t.arg({ type: AssetCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { filename, path: folder, content_type: contentType } = args.input;
      const path = folder ?? "";
      const name = { ...scope, path, filename };
      const taken = await ctx.db.asset.findUnique({
        where: { accountId_path_filename: name },
        select: { id: true },
      });
      if (taken) throw nameTaken();
      const { staged, declaredType } = await uploadBytes(ctx, args.input);
      const id = newId(prefixes.asset);
      try {
        const type = contentTypeFor(filename, contentType ?? declaredType);
        const mismatch = signatureProblem(type, await ctx.storage.stagedHead(staged.id, SIGNATURE_BYTES));
        if (mismatch) throw ApiError.invalid(typeSource(type, contentType, declaredType), mismatch);
        await ctx.storage.commit(staged.id, scope.accountId, id);
        try {
          await ctx.db.asset.create({
            data: {
              ...name,
              id,
              contentType: type,
              fileSize: staged.size,
            },
          });
        } catch (error) {
          await ctx.storage.remove(scope.accountId, id);
          throw isUniqueViolation(error) ? nameTaken() : error;
        }
      } finally {
        await ctx.storage.discard(staged.id);
      }
      return ctx.db.asset.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
