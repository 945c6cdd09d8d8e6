// Per-request batch loaders: every entity or asset reference met while resolving one request is fetched
// in one query per account, however many entries or fields point at it.
import DataLoader from "dataloader";
import type { Prisma } from "../generated/sqlite/client.ts";
import {
  type BlueprintLookup,
  type CollectionLookup,
  readAccountBlueprints,
  readAccountCollections,
} from "./account-lookups.ts";
import type { Context } from "./context.ts";
import type { Eventually } from "./eventually.ts";

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
 * The account's entries `where` selects, as an expansion reads them. Their blueprints' fields come from
 * the account's kept blueprints (account-lookups.ts): entries are written far more often than blueprints,
 * and a relation would cost a second query on every read.
 */
export async function findReferencedEntries(
  ctx: Pick<Context, "db" | "keep">,
  accountId: string,
  where: Prisma.EntryWhereInput,
): Promise<ReferencedEntry[]> {
  const rows = await ctx.db.entry.findMany({ where: { ...where, accountId }, select: referencedRowSelect });
  if (rows.length === 0) return [];
  const blueprints = await readAccountBlueprints(ctx, accountId);
  // A blueprint in use cannot be deleted (onDelete: Restrict); only an entry that moved to another
  // blueprint between the two reads, whose old one was then deleted, finds none (for this request).
  // Named column by column, not spread: see the context's note (context.ts).
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    handle: row.handle,
    contentPath: row.contentPath,
    publishedAt: row.publishedAt,
    published: row.published,
    data: row.data,
    blueprint: { fields: blueprints.get(row.blueprintId)?.fields ?? [] },
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
  /** The account's blueprints by ID (read once per request, kept as a lookup; the map itself once read). */
  blueprints: (accountId: string) => Eventually<ReadonlyMap<string, BlueprintLookup>>;
  /** The account's collections by ID (read once per request, kept as a lookup; the map itself once read). */
  collections: (accountId: string) => Eventually<ReadonlyMap<string, CollectionLookup>>;
  /** After a write of blueprints or collections: the next `blueprints` and `collections` read again. */
  forgetLookups: () => void;
}

export function createLoaders(ctx: Pick<Context, "db" | "keep">): Loaders {
  const byAccount = new Map<string, DataLoader<string, ReferencedEntry | null>>();
  const assetsByAccount = new Map<string, DataLoader<string, ReferencedAsset | null>>();
  const blueprints = onceEach((accountId) => readAccountBlueprints(ctx, accountId));
  const collections = onceEach((accountId) => readAccountCollections(ctx, accountId));
  return {
    blueprints: blueprints.read,
    collections: collections.read,
    forgetLookups: () => {
      blueprints.forget();
      collections.forget();
    },
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

/**
 * `read` once per account within the request (until forgotten): later callers share its answer, and get
 * the answer itself once it has come, so that a list's rows need no promise each to name their blueprint.
 */
function onceEach<T>(read: (accountId: string) => Promise<T>) {
  const started = new Map<string, Eventually<T>>();
  return {
    read(accountId: string): Eventually<T> {
      let found = started.get(accountId);
      if (!found) {
        const reading = read(accountId);
        started.set(accountId, reading);
        reading.then(
          (value) => started.get(accountId) === reading && started.set(accountId, value),
          () => {},
        );
        found = reading;
      }
      return found;
    },
    forget: () => started.clear(),
  };
}
