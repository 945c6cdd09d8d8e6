// Blueprint values as the document writes them: what is stored, except that the two kinds of value that
// hold IDs name their target instead. An entity value (stored as entry IDs) becomes
// `collection_handle:entry_handle`, exactly what the API accepts on write; an image stored as an asset
// ID becomes that asset's `folder/filename`. An image stored as a URL path (`/assets/...`, sent as a
// path) stays as it is. References to deleted records drop out, as they do in API answers. Only the
// values of the blueprint's fields are written: nothing else can be read back through the API.
import type { AccountScope } from "../access.ts";
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { isAssetId } from "../entries/media.ts";
import { isPlainObject } from "../entries/values.ts";
import { assetReference, chunks, entryReference } from "./references.ts";

export interface StoredValues {
  fields: readonly FieldDefinition[];
  data: unknown;
}

/** The values of many records in one go (a batch of entries, all globals): two queries for all of them. */
export async function portableValues(
  ctx: Context,
  scope: AccountScope,
  records: readonly StoredValues[],
): Promise<Record<string, unknown>[]> {
  const picked = records.map(({ fields, data }) => pickValues(fields, data));
  const entryIds = new Set<string>();
  const assetIds = new Set<string>();
  records.forEach(({ fields }, index) => {
    const values = picked[index] ?? {};
    for (const field of fields) {
      const value = values[field.handle];
      if (field.type === "entity") for (const id of storedIds(value)) entryIds.add(id);
      if (field.type === "image" && isAssetId(value)) assetIds.add(value);
    }
  });
  const entries = await entryReferences(ctx, scope, [...entryIds]);
  const assets = await assetReferences(ctx, scope, [...assetIds]);
  return records.map(({ fields }, index) => {
    const values = picked[index] ?? {};
    for (const field of fields) {
      if (!Object.hasOwn(values, field.handle)) continue;
      const value = values[field.handle];
      if (field.type === "entity") {
        const named = storedIds(value).flatMap((id) => entries.get(id) ?? []);
        values[field.handle] = Array.isArray(value) ? named : (named[0] ?? null);
      } else if (field.type === "image" && isAssetId(value)) {
        values[field.handle] = assets.get(value) ?? null;
      }
    }
    return values;
  });
}

function pickValues(fields: readonly FieldDefinition[], data: unknown): Record<string, unknown> {
  const stored = isPlainObject(data) ? data : {};
  const values: Record<string, unknown> = {};
  for (const { handle } of fields) if (Object.hasOwn(stored, handle)) values[handle] = stored[handle];
  return values;
}

function storedIds(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === "string");
}

async function entryReferences(ctx: Context, scope: AccountScope, ids: string[]) {
  const names = new Map<string, string>();
  for (const chunk of chunks(ids)) {
    const rows = await ctx.db.entry.findMany({
      where: { ...scope, id: { in: chunk } },
      select: { id: true, handle: true, collection: { select: { handle: true } } },
    });
    for (const row of rows) names.set(row.id, entryReference(row.collection.handle, row.handle));
  }
  return names;
}

async function assetReferences(ctx: Context, scope: AccountScope, ids: string[]) {
  const names = new Map<string, string>();
  for (const chunk of chunks(ids)) {
    const rows = await ctx.db.asset.findMany({
      where: { ...scope, id: { in: chunk } },
      select: { id: true, path: true, filename: true },
    });
    for (const row of rows) names.set(row.id, assetReference(row));
  }
  return names;
}
