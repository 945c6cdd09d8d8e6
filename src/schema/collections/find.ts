// Resolving a collection named in a path, inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findCollection(ctx: Context, scope: AccountScope, idOrHandleValue: string) {
  const collection = await ctx.db.collection.findFirst({
    where: { ...scope, ...idOrHandle(idOrHandleValue, prefixes.collection) },
  });
  if (!collection) throw ApiError.notFound("Collection");
  return collection;
}

export type CollectionRow = Awaited<ReturnType<typeof findCollection>>;
