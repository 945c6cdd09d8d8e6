// The `assets` section: each uploaded file's metadata (folder, filename, type, size and checksum), and,
// for archives that carry the bytes too, the files themselves named as the document names them. Assets
// are read a page at a time; their bytes only as a stream.
import type { Readable } from "node:stream";
import { type AccountScope, accountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { sha256Of } from "./checksum.ts";
import { creationOrder, inPages } from "./keyset.ts";
import { assetReference } from "./references.ts";
import { yamlEntry, yamlItems, yamlKey } from "./yaml-text.ts";

const ASSET_PAGE = 200;

function assetPages(ctx: Context, scope: AccountScope) {
  return inPages(
    (after, take) =>
      ctx.db.asset.findMany({
        where: { ...scope, ...after },
        orderBy: creationOrder(),
        take,
        select: { id: true, createdAt: true, path: true, filename: true, contentType: true, fileSize: true },
      }),
    ASSET_PAGE,
  );
}

export async function* assetsSection(
  ctx: Context,
  scope: AccountScope,
  onAsset: () => void,
): AsyncGenerator<string> {
  let any = false;
  for await (const rows of assetPages(ctx, scope)) {
    if (!any) yield yamlKey("assets");
    any = true;
    const items = [];
    for (const row of rows) {
      items.push({
        path: row.path,
        filename: row.filename,
        content_type: row.contentType,
        size: row.fileSize,
        sha256: await sha256Of(await ctx.storage.read(scope.accountId, row.id)),
      });
      onAsset();
    }
    yield yamlItems(items, 2);
  }
  if (!any) yield yamlEntry("assets", []);
}

export interface AssetFile {
  /** `folder/filename`, as the document's image values name the asset. */
  name: string;
  size: number;
  /** The stored bytes, or undefined when the file is missing. */
  read(): Promise<Readable | undefined>;
}

/** Every asset's file, in the order of the `assets` section (for archives holding the bytes too). */
export async function* assetFiles(ctx: Context, accountId: string): AsyncGenerator<AssetFile> {
  const scope = await accountScope(ctx, accountId, "read");
  for await (const rows of assetPages(ctx, scope))
    for (const row of rows)
      yield {
        name: assetReference(row),
        size: row.fileSize,
        read: () => ctx.storage.read(scope.accountId, row.id),
      };
}
