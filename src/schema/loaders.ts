// Per-request batch loaders: every entity reference met while resolving one request is fetched in one
// query per account, however many entries or fields point at it.
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
}

export interface Loaders {
  /** Entries by ID, within one account. */
  entries: (accountId: string) => DataLoader<string, ReferencedEntry | null>;
}

export function createLoaders(ctx: Pick<Context, "db">): Loaders {
  const byAccount = new Map<string, DataLoader<string, ReferencedEntry | null>>();
  return {
    entries(accountId) {
      let loader = byAccount.get(accountId);
      if (!loader) {
        loader = new DataLoader(async (ids) => {
          const rows = await ctx.db.entry.findMany({
            where: { accountId, id: { in: [...ids] } },
            select: {
              id: true,
              title: true,
              handle: true,
              contentPath: true,
              publishedAt: true,
              published: true,
              data: true,
            },
          });
          const byId = new Map(rows.map((row) => [row.id, row]));
          return ids.map((id) => byId.get(id) ?? null);
        });
        byAccount.set(accountId, loader);
      }
      return loader;
    },
  };
}
