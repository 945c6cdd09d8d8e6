// Entity references: an entry `cnety_` ID, `collection_handle:entry_handle`, or a bare entry handle,
// which resolves in the field's `options.collection` if set, else in the entry's own collection (a global
// has none: there a bare handle resolves only through `options.collection`).
import type { AccountScope } from "../access.ts";
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { isIdOf, prefixes } from "../ids.ts";
import { findReferencedEntries } from "../loaders.ts";

export interface EntityLookup {
  ctx: Context;
  scope: AccountScope;
  /** The collection a bare handle falls back to; absent for values that belong to no collection. */
  ownCollectionId?: string;
}

/**
 * The referenced entry's ID, or undefined when the reference does not resolve in the account. The entry
 * is read as an expansion reads it, through the request's loader, so that the answer expands it without
 * reading it again (an entry write clears the loader: see updateEntry).
 */
export async function resolveEntity(
  lookup: EntityLookup,
  field: FieldDefinition,
  ref: string,
): Promise<string | undefined> {
  const { ctx, scope } = lookup;
  const loader = ctx.loaders.entries(scope.accountId);
  if (isIdOf(ref, prefixes.entry)) return (await loader.load(ref))?.id;
  const separator = ref.indexOf(":");
  const collectionHandle =
    separator >= 0
      ? ref.slice(0, separator)
      : typeof field.options.collection === "string"
        ? field.options.collection
        : undefined;
  const handle = separator >= 0 ? ref.slice(separator + 1) : ref;
  if (!collectionHandle && !lookup.ownCollectionId) return undefined;
  // At most one: handles are unique in a collection, collection handles in an account.
  const [entry] = await findReferencedEntries(ctx, scope.accountId, {
    handle,
    ...(collectionHandle
      ? { collection: { ...scope, handle: collectionHandle } }
      : { collectionId: lookup.ownCollectionId }),
  });
  if (!entry) return undefined;
  loader.prime(entry.id, entry);
  return entry.id;
}
