// Values as the document writes them, turned into what the API's value rules take: an entity reference
// `collection_handle:entry_handle` (or a bare handle, in the field's `options.collection` or the entry's
// own collection, as entity.ts reads one) becomes the ID of the entry it names, stored or planned by this
// import; an image naming one of the site's assets by `folder/filename` becomes that asset's ID. The
// request's loaders are primed with those records, so that normalizeValues (the rules every entry and
// global write applies) accepts them without a query. A reference to nothing is left as it is: the
// rules then refuse it as they would over the API.
import type { FieldDefinition } from "../blueprints/fields.ts";
import { entryReference } from "../export/references.ts";
import type { ReferencedEntry } from "../loaders.ts";
import type { ImportRun } from "./run.ts";

export function resolvedValues(
  run: ImportRun,
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
  ownCollection: string | undefined,
): Record<string, unknown> {
  const resolved: Record<string, unknown> = { ...values };
  for (const field of fields) {
    const value = values[field.handle];
    if (value == null) continue;
    if (field.type === "entity") {
      const target = typeof field.options.collection === "string" ? field.options.collection : ownCollection;
      resolved[field.handle] = Array.isArray(value)
        ? value.map((ref) => entityId(run, ref, target))
        : entityId(run, value, target);
    } else if (field.type === "image" && typeof value === "string") {
      const asset = run.index.assets.get(value);
      if (asset) {
        run.ctx.loaders.assets(run.scope.accountId).prime(asset.id, asset);
        resolved[field.handle] = asset.id;
      }
    }
  }
  return resolved;
}

function entityId(run: ImportRun, ref: unknown, collection: string | undefined): unknown {
  if (typeof ref !== "string") return ref;
  const separator = ref.indexOf(":");
  const key = separator >= 0 ? ref : collection !== undefined ? entryReference(collection, ref) : undefined;
  const entry = key !== undefined ? run.index.entries.get(key) : undefined;
  if (!entry) return ref;
  // Only its ID is read (entity.ts): the rest of an expansion's row is not needed here.
  run.ctx.loaders.entries(run.scope.accountId).prime(entry.id, { id: entry.id } as ReferencedEntry);
  return entry.id;
}
