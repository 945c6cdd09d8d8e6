// Resolving a collection named in a path, inside the caller's account.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

/** The collection, with the relations `include` names (a create reads its blueprints in the same query). */
export async function findCollection<Include extends Prisma.CollectionInclude = Record<never, never>>(
  ctx: Context,
  scope: AccountScope,
  idOrHandleValue: string,
  include?: Include,
) {
  const collection = await ctx.db.collection.findFirst({
    where: { ...scope, ...idOrHandle(idOrHandleValue, prefixes.collection) },
    include,
  });
  if (!collection) throw ApiError.notFound("Collection");
  return collection as Prisma.CollectionGetPayload<{ include: Include }>;
}

/**
 * The ID of the collection a path names, from the account's kept collections (account-lookups.ts): reading
 * its entries then costs no query for it. One the lookup lacks (created a moment ago in another process, or
 * none at all) is read as `findCollection` reads it.
 */
export async function findCollectionId(ctx: Context, scope: AccountScope, idOrHandleValue: string) {
  const kept = await ctx.loaders.collections(scope.accountId);
  const named = idOrHandle(idOrHandleValue, prefixes.collection);
  if ("id" in named) {
    if (kept.has(named.id)) return named.id;
  } else {
    for (const [id, collection] of kept) if (collection.handle === named.handle) return id;
  }
  return (await findCollection(ctx, scope, idOrHandleValue)).id;
}

export type CollectionRow = Prisma.CollectionGetPayload<{ include: Record<never, never> }>;
