// An asset the server downloads from a URL (the tool interface's assets_upload_from_url). The download
// is src/http/outbound.ts: public addresses only unless OUTBOUND_ALLOW_PRIVATE, at most the upload limit,
// 20 s (less under a shorter REQUEST_TIMEOUT_MS); its failures are 422s on `url`. The bytes then take the same path as any upload (store.ts), the
// response's Content-Type counting as the declared type.
import { Readable } from "node:stream";
import { z } from "zod";
import { type Fetched, fetchPublic, OutboundError, outboundUrl } from "../../http/outbound.ts";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { contentTypeSchema } from "./content-types.ts";
import { filenameSchema, pathSchema } from "./names.ts";
import { refuseTakenName, storeAsset } from "./store.ts";
import { AssetRef } from "./type.ts";
import { filenameFromUrl } from "./url-filename.ts";

const URL_MAX = 2048;

const AssetCreateFromUrlInput = builder.inputType("AssetCreateFromUrlInput", {
  fields: (t) => ({
    url: t.string({
      required: true,
      description: "A public http(s) URL; redirects are followed.",
      validate: z.string().trim().max(URL_MAX, `must be at most ${URL_MAX} characters`),
    }),
    filename: t.string({ validate: filenameSchema, description: "Defaults to the URL path's last segment." }),
    path: t.string({ validate: pathSchema, description: "Folder path; empty or omitted for the root." }),
    content_type: t.string({
      validate: contentTypeSchema,
      description: "Defaults to the response's Content-Type, else the type the filename extension names.",
    }),
  }),
});

builder.mutationField("assetCreateFromUrl", (t) =>
  t.prismaField({
    type: AssetRef,
    description: "Uploads a file the server downloads from a public http(s) URL.",
    args: { account_id: accountArg(t.arg), input: t.arg({ type: AssetCreateFromUrlInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { url, filename, path, content_type: contentType } = args.input;
      checkUrl(url);
      const name = { ...scope, path: path ?? "", filename: filename ?? filenameFromUrl(url) };
      await refuseTakenName(ctx, name);
      const fetched = await download(ctx, url);
      const declared = contentTypeSchema.safeParse(fetched.contentType ?? "");
      const staged = await ctx.storage.stage(Readable.from([fetched.bytes]));
      const id = await storeAsset(ctx, name, staged, {
        field: contentType,
        ...(declared.success && { declared: { type: declared.data, path: "url" } }),
        filenamePath: filename == null ? "url" : "filename",
      });
      return ctx.db.asset.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

/** A URL the fetcher would refuse outright is refused before anything else is looked at. */
function checkUrl(url: string): void {
  try {
    outboundUrl(url);
  } catch (error) {
    throw urlProblem(error);
  }
}

async function download(ctx: Context, url: string): Promise<Fetched> {
  try {
    return await fetchPublic(url, {
      allowPrivate: ctx.outboundAllowPrivate,
      maxBytes: ctx.uploadLimit,
      // Below the request's own timeout, so that a slow download is a 422 saying so.
      timeoutMs: ctx.outboundTimeoutMs,
    });
  } catch (error) {
    throw urlProblem(error);
  }
}

/** A failed download is the caller's URL's problem: a 422 on `url` saying what went wrong. */
function urlProblem(error: unknown): unknown {
  return error instanceof OutboundError ? ApiError.invalid("url", error.message) : error;
}
