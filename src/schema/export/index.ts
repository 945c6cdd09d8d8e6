// The account's whole site as one YAML document, produced part by part so that a transport can stream
// it: REST's GET /v1/accounts/:account_id/export.yaml and `cms export`. Sections come in the order an
// import must create them in: collections (with their blueprints), standalone blueprints, templates,
// assets, entries, navigations, forms, globals.
import { unbounded } from "../../db/deadline.ts";
import { accountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { assetsSection } from "./assets.ts";
import { blueprintIndex, standaloneBlueprintsSection } from "./blueprints.ts";
import { collectionsSection, readCollections } from "./collections.ts";
import { entriesSection } from "./entries.ts";
import { formsSection } from "./forms.ts";
import { globalsSection } from "./globals.ts";
import { countRecords, type ExportCounts, header, trailer } from "./header.ts";
import { navigationsSection } from "./navigations.ts";
import { templatesSection } from "./templates.ts";

export { type AssetFile, assetFiles } from "./assets.ts";
export { EXPORT_FORMAT } from "./header.ts";

export interface ExportProgress {
  entries: number;
  assets: number;
}

export interface SiteExport {
  /** Counted before the first part: a progress bar's totals. */
  counts: ExportCounts;
  /** The document's text, part by part; nothing is read before a part is asked for. */
  parts: AsyncGenerator<string, void, undefined>;
}

/**
 * Checks the caller may read the account (401/403 here, before any part is produced, so that a transport
 * can still answer with an error status), then returns the document to pull. `onProgress` hears how many
 * entries and assets have been written so far.
 */
export async function exportSite(
  ctx: Context,
  accountId: string,
  onProgress: (done: ExportProgress) => void = () => {},
): Promise<SiteExport> {
  const scope = await accountScope(ctx, accountId, "read");
  const account = await ctx.db.account.findUnique({
    where: { id: accountId },
    select: { name: true, domain: true },
  });
  if (!account) throw new ApiError(404, `no account ${accountId}`);
  const source = account;
  const counts = await countRecords(ctx, scope);
  const done: ExportProgress = { entries: 0, assets: 0 };
  // The document is read while it is sent, after the answer has begun, so past the request's deadline,
  // which bounds the work before an answer (db/deadline.ts); the parts only read.
  const reader: Context = { ...ctx, db: unbounded(ctx.db) };
  async function* parts(): AsyncGenerator<string, void, undefined> {
    yield header(source, counts);
    const collections = await readCollections(reader, scope);
    yield collectionsSection(collections);
    yield await standaloneBlueprintsSection(reader, scope);
    yield* templatesSection(reader, scope);
    yield* assetsSection(reader, scope, () => {
      done.assets++;
      onProgress(done);
    });
    const blueprints = await blueprintIndex(reader, scope);
    yield* entriesSection(reader, scope, collections, blueprints, (count) => {
      done.entries += count;
      onProgress(done);
    });
    yield await navigationsSection(reader, scope);
    yield await formsSection(reader, scope);
    yield await globalsSection(reader, scope);
    yield trailer();
  }
  return { counts, parts: parts() };
}
