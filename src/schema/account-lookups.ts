// An account's blueprints and collections by ID, as the records that name them read them (an entry's
// blueprint handle, fields and collection handle; a site page's collection name, template and layout).
// Each is a lookup of the account's structure (context.ts `keep`): kept while its structure generation
// stands, whatever is written to its entries, so reading an entry costs no query for them; asked at most
// once per request (loaders.ts).
import type { Context } from "./context.ts";
import { type Eventually, whenReady } from "./eventually.ts";

export interface BlueprintLookup {
  handle: string;
  fields: unknown;
}

export interface CollectionLookup {
  handle: string;
  name: string;
  templateHandle: string | null;
  layoutHandle: string | null;
  schemaType: string | null;
}

const collectionSelect = {
  handle: true,
  name: true,
  templateHandle: true,
  layoutHandle: true,
  schemaType: true,
} as const;

const bytes = (found: object) => JSON.stringify(found).length * 2;

/** `read`'s value, kept while the account's structure (or all of it: "content") stays unchanged. */
export function keptLookup<T extends object>(
  ctx: Pick<Context, "keep">,
  key: string,
  account: string,
  of: "structure" | "content",
  read: () => Promise<T>,
): Promise<T> {
  return ctx.keep(key, read, { size: bytes, lookup: { account, of } });
}

export async function readAccountBlueprints(
  ctx: Pick<Context, "db" | "keep">,
  accountId: string,
): Promise<ReadonlyMap<string, BlueprintLookup>> {
  const rows = await keptLookup(ctx, `blueprints\u0000${accountId}`, accountId, "structure", () =>
    ctx.db.blueprint.findMany({ where: { accountId }, select: { id: true, handle: true, fields: true } }),
  );
  return new Map(rows.map(({ id, ...blueprint }) => [id, blueprint]));
}

export async function readAccountCollections(
  ctx: Pick<Context, "db" | "keep">,
  accountId: string,
): Promise<ReadonlyMap<string, CollectionLookup>> {
  const rows = await keptLookup(ctx, `collections\u0000${accountId}`, accountId, "structure", () =>
    ctx.db.collection.findMany({ where: { accountId }, select: { id: true, ...collectionSelect } }),
  );
  return new Map(rows.map(({ id, ...collection }) => [id, collection]));
}

type WithLoaders = Pick<Context, "db" | "loaders">;

/**
 * The blueprint `id` of the account. One created by the request's own write, after its lookup was read,
 * is missing from it: then it is read on its own.
 */
export function blueprintOf(ctx: WithLoaders, accountId: string, id: string): Eventually<BlueprintLookup> {
  return whenReady(
    ctx.loaders.blueprints(accountId),
    (kept) =>
      kept.get(id) ??
      ctx.db.blueprint.findUniqueOrThrow({ where: { id }, select: { handle: true, fields: true } }),
  );
}

/** The collection `id` of the account; as `blueprintOf`. */
export function collectionOf(ctx: WithLoaders, accountId: string, id: string): Eventually<CollectionLookup> {
  return whenReady(
    ctx.loaders.collections(accountId),
    (kept) =>
      kept.get(id) ?? ctx.db.collection.findUniqueOrThrow({ where: { id }, select: collectionSelect }),
  );
}

type InAccount = { accountId: string; blueprintId: string; collectionId: string };

/** A record's blueprint handle (an entry's `blueprint_handle`). */
export const blueprintHandleOf = (ctx: WithLoaders, record: InAccount) =>
  whenReady(blueprintOf(ctx, record.accountId, record.blueprintId), (blueprint) => blueprint.handle);

/** A record's collection handle (an entry's `collection_handle`). */
export const collectionHandleOf = (ctx: WithLoaders, record: InAccount) =>
  whenReady(collectionOf(ctx, record.accountId, record.collectionId), (collection) => collection.handle);
