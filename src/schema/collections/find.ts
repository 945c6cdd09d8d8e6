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

export type CollectionRow = Prisma.CollectionGetPayload<{ include: Record<never, never> }>;
