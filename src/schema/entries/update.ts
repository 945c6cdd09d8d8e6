// PUT/PATCH /collections/:collection_id/entries/:id: only the sent fields change; `blueprint_handle`
// is fixed after create.
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { type CollectionRow, findCollection } from "../collections/find.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { type EntryUpdate, EntryUpdateInput } from "./inputs.ts";
import { prepareEntry } from "./prepare.ts";
import { storedEntrySelect, updateEntry } from "./save.ts";
import { EntryRef } from "./type.ts";

export const MAX_ATTEMPTS = 50;

/** Losers of a compare-and-set race wait a little, at random, so that they stop colliding. */
export const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + attempt * 2, 25)));

/** Applies `input` to the entry `where` names; retries when a concurrent writer got there first. */
export async function applyEntryUpdate(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  where: { id: string } | { handle: string },
  input: EntryUpdate,
): Promise<string> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await ctx.db.entry.findFirst({
      where: { ...scope, collectionId: collection.id, ...where },
      select: storedEntrySelect,
    });
    if (!stored) throw ApiError.notFound("Entry");
    const blueprint = { id: stored.blueprintId, fields: readFields(stored.blueprint.fields) };
    const prepared = await prepareEntry(ctx, scope, collection, blueprint, input);
    try {
      if (await updateEntry(ctx, scope, collection, stored, input, prepared)) return stored.id;
    } catch (error) {
      if (isUniqueViolation(error))
        throw ApiError.invalid("handle", "is already used by another entry of this collection");
      throw error;
    }
    await backoff(attempt);
  }
  throw new ApiError(409, "The entry is being changed by other requests; try again");
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
