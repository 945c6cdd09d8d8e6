// The record whose history is asked for, found as its own read finds it (an ID or a handle, inside the
// caller's account): only its ID is needed.
import type { AccountScope } from "../access.ts";
import { findCollection } from "../collections/find.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findGlobal } from "../globals/find.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { findTemplate } from "../templates/find.ts";

/** The entry `id` of the collection `collectionId` names: 404 on the collection, then on the entry. */
export async function findEntryRecord(ctx: Context, scope: AccountScope, collectionId: string, id: string) {
  const collection = await findCollection(ctx, scope, collectionId);
  const entry = await ctx.db.entry.findFirst({
    where: { ...scope, collectionId: collection.id, ...idOrHandle(id, prefixes.entry) },
    select: { id: true, data: true },
  });
  if (!entry) throw ApiError.notFound("Entry");
  return { collection, entry };
}

export async function findGlobalId(ctx: Context, scope: AccountScope, id: string): Promise<string> {
  return (await findGlobal(ctx, scope, id, { select: { id: true } })).id;
}

export async function findTemplateId(ctx: Context, scope: AccountScope, id: string): Promise<string> {
  return (await findTemplate(ctx, scope, id, { select: { id: true } })).id;
}
