// Per-request batch loaders: every entity or asset reference met while resolving one request is fetched
// in one query per account, however many entries or fields point at it.
import DataLoader from "dataloader";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { Context } from "./context.ts";

export interface ReferencedEntry {
  id: string;
  title: string;
  handle: string;
  contentPath: string;
  publishedAt: Date | null;
  published: boolean;
  data: unknown;
  /** The entry's blueprint fields (raw), to read its values by type. */
  blueprint: { fields: unknown };
}

/** What an expansion reads of a referenced entry's own row (its blueprint's fields are kept apart). */
const referencedRowSelect = {
  id: true,
  title: true,
  handle: true,
  contentPath: true,
  publishedAt: true,
  published: true,
  data: true,
  blueprintId: true,
} as const;

/**
 * The account's entries `where` selects, as an expansion reads them. Their blueprints' fields are kept
 * under the Blueprint table's generation: entries are written far more often than blueprints, and a
 * relation would cost a second query on every read.
 */
export async function findReferencedEntries(
  ctx: Pick<Context, "db" | "keep">,
  accountId: string,
  where: Prisma.EntryWhereInput,
): Promise<ReferencedEntry[]> {
  const rows = await ctx.db.entry.findMany({ where: { ...where, accountId }, select: referencedRowSelect });
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((row) => row.blueprintId))].sort();
  const blueprints = await ctx.keep(
    `blueprint fields\u0000${accountId}\u0000${ids.join(",")}`,
    () =>
      ctx.db.blueprint.findMany({
        where: { accountId, id: { in: ids } },
        select: { id: true, fields: true },
      }),
    { size: (found) => JSON.stringify(found).length * 2, tables: ["Blueprint"] },
  );
  const fieldsById = new Map(blueprints.map((blueprint) => [blueprint.id, blueprint.fields]));
  // A blueprint in use cannot be deleted (onDelete: Restrict); only an entry that moved to another
  // blueprint between the two reads, whose old one was then deleted, finds none (for this request).
  return rows.map(({ blueprintId, ...row }) => ({
    ...row,
    blueprint: { fields: fieldsById.get(blueprintId) ?? [] },
  }));
}

export interface ReferencedAsset {
  id: string;
  path: string;
  filename: string;
}

export interface Loaders {
  /** Entries by ID, within one account. */
  entries: (accountId: string) => DataLoader<string, ReferencedEntry | null>;
  /** Assets by ID, within one account. */
  assets: (accountId: string) => DataLoader<string, ReferencedAsset | null>;
}

export function createLoaders(ctx: Pick<Context, "db" | "keep">): Loaders {
  const byAccount = new Map<string, DataLoader<string, ReferencedEntry | null>>();
  const assetsByAccount = new Map<string, DataLoader<string, ReferencedAsset | null>>();
  return {
    entries(accountId) {
      let loader = byAccount.get(accountId);
      if (!loader) {
        loader = new DataLoader(async (ids) => {
          const rows = await findReferencedEntries(ctx, accountId, { id: { in: [...ids] } });
          const byId = new Map(rows.map((row) => [row.id, row]));
          return ids.map((id) => byId.get(id) ?? null);
        });
        byAccount.set(accountId, loader);
      }
      return loader;
    },
    assets(accountId) {
      let loader = assetsByAccount.get(accountId);
      if (!loader) {
        loader = new DataLoader(async (ids) => {
          const rows = await ctx.db.asset.findMany({
            where: { accountId, id: { in: [...ids] } },
            select: { id: true, path: true, filename: true },
          });
          const byId = new Map(rows.map((row) => [row.id, row]));
          return ids.map((id) => byId.get(id) ?? null);
        });
        assetsByAccount.set(accountId, loader);
      }
      return loader;
    },
  };
}
