// PUT/PATCH /collections/:collection_id/entries/:id: only the sent fields change; `blueprint_handle`
// is fixed after create.
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { type CollectionRow, findCollection } from "../collections/find.ts";
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

/** Applies `input` to the entry `where` names; retries when a concurrent writer got there first. */
export async function applyEntryUpdate(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  where: { id: string } | { handle: string },
  input: EntryUpdate,
  system: SystemChanges = {},
): Promise<string> {
  return compareAndSet("entry", async () => {
    const stored = await ctx.db.entry.findFirst({
      where: { ...scope, collectionId: collection.id, ...where },
      select: storedEntrySelect,
    });
    // Read in two statements: an entry deleted with its collection between them comes without its blueprint.
    if (!stored?.blueprint) throw ApiError.notFound("Entry");
    if (input.handle != null && input.handle !== stored.handle)
      requireHandleStyle(ctx, "handle", input.handle);
    const blueprint = { id: stored.blueprintId, fields: readFields(stored.blueprint.fields) };
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
      const collection = await findCollection(ctx, scope, args.collection_id);
      const id = await applyEntryUpdate(
        ctx,
        scope,
        collection,
        idOrHandle(args.id, prefixes.entry),
        args.input,
      );
      return ctx.db.entry.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
