// Per-request batch loaders: every entity or asset reference met while resolving one request is fetched
// in one query per account, however many entries or fields point at it.
import DataLoader from "dataloader";
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

/** What an expansion reads of a referenced entry (ReferencedEntry). */
export const referencedEntrySelect = {
  id: true,
  title: true,
  handle: true,
  contentPath: true,
  publishedAt: true,
  published: true,
  data: true,
  blueprint: { select: { fields: true } },
} as const;

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

export function createLoaders(ctx: Pick<Context, "db">): Loaders {
  const byAccount = new Map<string, DataLoader<string, ReferencedEntry | null>>();
  const assetsByAccount = new Map<string, DataLoader<string, ReferencedAsset | null>>();
  return {
    entries(accountId) {
      let loader = byAccount.get(accountId);
      if (!loader) {
        loader = new DataLoader(async (ids) => {
          const rows = await ctx.db.entry.findMany({
            where: { accountId, id: { in: [...ids] } },
            select: referencedEntrySelect,
          });
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
