// The public side of assets: the site of the account whose domain is the request's Host (port ignored)
// serves each of its assets at the asset's URL. The render layer asks here, and reads the bytes through
// the returned `open`.
import type { Readable } from "node:stream";
import type { ByteRange } from "../../storage/local.ts";
import type { Context } from "../context.ts";
import { parseAssetPath } from "./names.ts";

export interface PublicAsset {
  id: string;
  contentType: string;
  fileSize: number;
  createdAt: Date;
  /** The file's bytes, or one range of them; undefined when the file has gone. */
  open(range?: ByteRange): Promise<Readable | undefined>;
}

/** `acme.test:3000` -> `acme.test`; `[::1]:80` -> `[::1]`; lowercased, without a trailing dot. */
export function hostName(host: string | null | undefined): string {
  const value = (host ?? "").trim().toLowerCase();
  const name = value.startsWith("[") ? value.slice(0, value.indexOf("]") + 1) : value.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/**
 * The asset the URL path below `/assets/` names on the site of the account owning `host`, or undefined
 * (unknown host, path or asset).
 */
export async function findPublicAsset(
  ctx: Context,
  host: string | null | undefined,
  assetPath: string,
): Promise<PublicAsset | undefined> {
  const domain = hostName(host);
  const name = parseAssetPath(assetPath);
  if (!domain || !name) return undefined;
  const account = await ctx.db.account.findUnique({ where: { domain }, select: { id: true } });
  if (!account) return undefined;
  const asset = await ctx.db.asset.findUnique({
    where: { accountId_path_filename: { accountId: account.id, ...name } },
    select: { id: true, contentType: true, fileSize: true, createdAt: true },
  });
  if (!asset) return undefined;
  return { ...asset, open: (range) => ctx.storage.read(account.id, asset.id, range) };
}
