// The document's first lines: which format it is, when it was made and from which site (by name and
// domain, never by ID), and how many records of the long lists it holds, counted when it began (an
// importer's progress bar; the lists themselves are authoritative).
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { yamlEntry } from "./yaml-text.ts";

/** The format's name and major version: a reader refuses a version it does not know. */
export const EXPORT_FORMAT = "cms-site/1";

export interface ExportCounts {
  collections: number;
  entries: number;
  assets: number;
}

export async function countRecords(ctx: Context, scope: AccountScope): Promise<ExportCounts> {
  const [collections, entries, assets] = await Promise.all([
    ctx.db.collection.count({ where: scope }),
    ctx.db.entry.count({ where: scope }),
    ctx.db.asset.count({ where: scope }),
  ]);
  return { collections, entries, assets };
}

export function header(account: { name: string; domain: string }, counts: ExportCounts): string {
  return [
    `# A whole site, as exported by this CMS: references are by handle and path, never by ID.\n`,
    yamlEntry("format", EXPORT_FORMAT),
    yamlEntry("exported_at", new Date().toISOString()),
    yamlEntry("source", { name: account.name, domain: account.domain }),
    yamlEntry("counts", counts),
  ].join("");
}

/**
 * The last line: a document cut short (a dropped connection, a failed read) can end at a line break and
 * still parse, so a reader takes a document without it as incomplete.
 */
export function trailer(): string {
  return yamlEntry("complete", true);
}
