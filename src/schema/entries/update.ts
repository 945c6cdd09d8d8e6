// PUT/PATCH /collections/:collection_id/entries/:id: only the sent fields change; `blueprint_handle`
// is fixed after create.
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import type { CollectionRow } from "../collections/find.ts";
import { findWriteTarget } from "../collections/write-target.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle, requireHandleStyle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { type EntryUpdate, EntryUpdateInput } from "./inputs.ts";
import { prepareEntry } from "./prepare.ts";
import { type SystemChanges, storedEntrySelect, updateEntry } from "./save.ts";
import { EntryRef } from "./type.ts";

/**
 * Applies `input` to the entry `where` names; retries when a concurrent writer got there first. The
 * collection's kept blueprints (`findWriteTarget`), when given, spare reading the entry's.
 */
export async function applyEntryUpdate(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow & { blueprints?: readonly { id: string; fields: unknown }[] },
  where: { id: string } | { handle: string },
  input: EntryUpdate,
  system: SystemChanges = {},
): Promise<string> {
  return compareAndSet("entry", async () => {
    const stored = await ctx.db.entry.findFirst({
      where: { ...scope, collectionId: collection.id, ...where },
      select: storedEntrySelect,
    });
    if (!stored) throw ApiError.notFound("Entry");
    const fields = await blueprintFields(ctx, stored.blueprintId, collection.blueprints);
    // An entry deleted with its collection since it was read has no blueprint left either.
    if (fields === undefined) throw ApiError.notFound("Entry");
    if (input.handle != null && input.handle !== stored.handle)
      requireHandleStyle(ctx, "handle", input.handle);
    const blueprint = { id: stored.blueprintId, fields: readFields(fields) };
    const prepared = await prepareEntry(ctx, scope, collection, blueprint, input);
    try {
      return (await updateEntry(ctx, scope, collection, stored, input, prepared, system))
        ? stored.id
        : undefined;
    } catch (error) {
      if (isUniqueViolation(error))
        throw ApiError.invalid("handle", "is already used by another entry of this collection");
      throw error;
    }
  });
}

/** The fields of blueprint `id`: from the kept ones when they have it, else read. */
async function blueprintFields(
  ctx: Context,
  id: string,
  kept: readonly { id: string; fields: unknown }[] = [],
): Promise<unknown> {
  const found = kept.find((blueprint) => blueprint.id === id);
  if (found) return found.fields;
  const read = await ctx.db.blueprint.findUnique({ where: { id }, select: { fields: true } });
  return read?.fields;
}

builder.mutationField("entryUpdate", (t) =>
  t.prismaField({
    type: EntryRef,
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
      input: t.arg({ type: EntryUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const target = await findWriteTarget(ctx, scope, args.collection_id);
      const id = await applyEntryUpdate(ctx, scope, target, idOrHandle(args.id, prefixes.entry), args.input);
      return ctx.db.entry.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
