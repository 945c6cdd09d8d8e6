// The public side of assets: the site of the account whose domain is the request's Host (port ignored)
// serves each of its assets at the asset's URL. The render layer asks here, and reads the bytes through
// the returned `open`.
import type { Readable } from "node:stream";
import type { ByteRange } from "../../storage/storage.ts";
import type { Context } from "../context.ts";
import { servedContentType } from "./content-types.ts";
import { parseAssetPath } from "./names.ts";

export interface PublicAsset {
  id: string;
  contentType: string;
  fileSize: number;
  createdAt: Date;
  /** The file's bytes, or one range of them; undefined when the file has gone. */
  open(range?: ByteRange): Promise<Readable | undefined>;
}

/**
 * The asset the URL path below `/assets/` names on the site the request's Host names (ctx.site()), or
 * undefined (unknown host, path or asset).
 */
export async function findPublicAsset(ctx: Context, assetPath: string): Promise<PublicAsset | undefined> {
  const name = parseAssetPath(assetPath);
  const account = name ? await ctx.site() : null;
  if (!name || !account) return undefined;
  const asset = await ctx.db.asset.findUnique({
    where: { accountId_path_filename: { accountId: account.id, ...name } },
    select: { id: true, contentType: true, fileSize: true, createdAt: true },
  });
  if (!asset) return undefined;
  return {
    ...asset,
    contentType: servedContentType(asset.contentType),
    open: (range) => ctx.storage.read(account.id, asset.id, range),
  };
}
