// On read, entity values become the referenced entries, expanded as
// {id, title, handle, ...fields, content_path, published_at}; references to deleted entries drop out.
// Images stored as asset IDs become the asset's current URL (null once the asset is deleted), in the
// entry and in the entries it expands.
import { assetUrl } from "../assets/names.ts";
import { type FieldDefinition, readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import type { ReferencedAsset, ReferencedEntry } from "../loaders.ts";
import { isVisibleAt } from "../site/scope.ts";
import { isAssetId } from "./media.ts";
import { isPlainObject } from "./values.ts";

export interface ExpandOptions {
  /** Only references to entries the public may see (site/scope.ts: published and due). */
  publishedOnly?: boolean;
  /**
   * How many levels of references become entries: 1 (the API's: an expanded entry's own references stay
   * IDs) unless told; the site gives more (SITE_EXPANSION_DEPTH), within `budget` entries in all.
   */
  depth?: number;
  budget?: { left: number };
}

/** The site's, as the service's (its MAX_RESOLVE_DEPTH): `{{ post.author.company.title }}` works. */
export const SITE_EXPANSION_DEPTH = 5;
/** Entries expanded below the first level for one value: a graph of wide lists must not multiply. */
const DEEPER_ENTRIES = 200;

export async function expandValues(
  ctx: Context,
  accountId: string,
  fields: readonly FieldDefinition[],
  data: unknown,
  options: ExpandOptions = {},
): Promise<Record<string, unknown>> {
  const { depth = 1, budget = { left: DEEPER_ENTRIES } } = options;
  // Awaited only where there is something to wait for: a list expands every row, and each promise
  // costs more than the work most rows need (no image, references already loaded in one batch).
  const values = isPlainObject(data) ? { ...data } : {};
  const images = resolveImages(ctx, accountId, fields, values);
  if (images) await images;
  const entityFields = fields.filter((field) => field.type === "entity" && values[field.handle] != null);
  if (entityFields.length === 0) return values;
  // Every field's references in one load, so that a list of entries costs one batch however many
  // entity fields its blueprint has.
  const loaded = await ctx.loaders
    .entries(accountId)
    .loadMany(entityFields.flatMap((field) => idsOf(values[field.handle])));
  // The public's view leaves out references to entries it may not see (unpublished or scheduled).
  const asOf = options.publishedOnly && loaded.length > 0 ? await ctx.asOf() : undefined;
  const byId = new Map<string, ReferencedEntry>();
  for (const entry of loaded) if (isEntry(entry)) byId.set(entry.id, entry);
  const pending: Promise<void>[] = [];
  for (const field of entityFields) {
    const stored = values[field.handle];
    const expanded = idsOf(stored)
      .map((id) => byId.get(id))
      .filter((entry): entry is ReferencedEntry => !!entry && (!asOf || isVisibleAt(entry, asOf)))
      .map((entry) => {
        // Its image fields' handles are no key expandEntry sets (reservedFieldHandles).
        const referenced = expandEntry(entry);
        const fields = readFields(entry.blueprint.fields);
        if (depth > 1 && budget.left-- > 0) {
          const deeper = { ...options, depth: depth - 1, budget };
          pending.push(
            expandValues(ctx, accountId, fields, referenced, deeper).then((values) => {
              Object.assign(referenced, values);
            }),
          );
        } else {
          const images = resolveImages(ctx, accountId, fields, referenced);
          if (images) pending.push(images);
        }
        return referenced;
      });
    values[field.handle] = Array.isArray(stored) ? expanded : (expanded[0] ?? null);
  }
  if (pending.length > 0) await Promise.all(pending);
  return values;
}

const idsOf = (stored: unknown) =>
  (Array.isArray(stored) ? stored : [stored]).filter((id): id is string => typeof id === "string");

/**
 * Replaces, in `values`, each image field's asset ID by that asset's URL (null when deleted); undefined
 * when it holds none, so that the caller need not wait.
 */
function resolveImages(
  ctx: Context,
  accountId: string,
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
): Promise<void> | undefined {
  const images = fields.filter((field) => field.type === "image" && isAssetId(values[field.handle]));
  if (images.length === 0) return undefined;
  return ctx.loaders
    .assets(accountId)
    .loadMany(images.map((field) => values[field.handle] as string))
    .then((assets) =>
      images.forEach((field, index) => {
        const asset = assets[index];
        values[field.handle] = isFound(asset) ? assetUrl(asset) : null;
      }),
    );
}

function isEntry(value: ReferencedEntry | Error | null): value is ReferencedEntry {
  return value !== null && !(value instanceof Error);
}

function isFound(value: ReferencedAsset | Error | null | undefined): value is ReferencedAsset {
  return value != null && !(value instanceof Error);
}

export function expandEntry(entry: ReferencedEntry): Record<string, unknown> {
  return {
    id: entry.id,
    title: entry.title,
    handle: entry.handle,
    ...(isPlainObject(entry.data) ? entry.data : {}),
    content_path: entry.contentPath,
    published_at: entry.publishedAt?.toISOString() ?? null,
  };
}
