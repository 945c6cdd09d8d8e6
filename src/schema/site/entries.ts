// Entries as a site page sees them: the entry's values at the top level next to its own fields,
// entity fields expanded to published entries only. An entry's blueprint and collection come from the
// account's kept lookups (account-lookups.ts), not from relations: a relation costs a statement per read.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { blueprintOf, collectionOf } from "../account-lookups.ts";
import { readFields } from "../blueprints/fields.ts";
import type { SortDirection } from "../content/inputs.ts";
import { key, orderBy, sortKeys } from "../content/order.ts";
import type { Context } from "../context.ts";
import { expandValues, SITE_EXPANSION_DEPTH } from "../entries/expand.ts";
import { visible } from "./scope.ts";

export const siteEntrySelect = {
  id: true,
  title: true,
  handle: true,
  publishedAt: true,
  position: true,
  contentPath: true,
  createdAt: true,
  updatedAt: true,
  templateHandle: true,
  layoutHandle: true,
  data: true,
  collectionId: true,
  blueprintId: true,
} satisfies Prisma.EntrySelect;

type SiteEntryRow = Prisma.EntryGetPayload<{ select: typeof siteEntrySelect }>;

export type EntryDrop = Record<string, unknown>;

export async function entryDrop(ctx: Context, scope: AccountScope, row: SiteEntryRow): Promise<EntryDrop> {
  const [blueprint, collection] = await Promise.all([
    blueprintOf(ctx, scope.accountId, row.blueprintId),
    collectionOf(ctx, scope.accountId, row.collectionId),
  ]);
  const values = await expandValues(ctx, scope.accountId, readFields(blueprint.fields), row.data, {
    publishedOnly: true,
    depth: SITE_EXPANSION_DEPTH,
  });
  return {
    ...values,
    id: row.id,
    title: row.title,
    handle: row.handle,
    published_at: row.publishedAt?.toISOString() ?? null,
    position: row.position,
    content_path: row.contentPath,
    collection_handle: collection.handle,
    template_handle: row.templateHandle,
    layout_handle: row.layoutHandle,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface EntryPage {
  kind: "entry";
  /** decisions.md: the entry's override, else the collection's, else `index`; layouts likewise, else `theme`. */
  template: string;
  layout: string;
  collection: { handle: string; name: string; schema_type: string | null };
  entry: EntryDrop;
}

/** The page of the visible entry at `path` (published, and not scheduled for later), or null. */
export async function entryPageAt(
  ctx: Context,
  scope: AccountScope,
  path: string,
): Promise<EntryPage | null> {
  const row = await ctx.db.entry.findFirst({
    where: { ...scope, ...(await visible(ctx)), contentPath: path },
    orderBy: { createdAt: "asc" },
    select: siteEntrySelect,
  });
  return row && entryPage(ctx, scope, row);
}

/**
 * The page the entry `handle` of `collection` has or would have on the site, published or not (a
 * preview: drafts and future-dated entries included), or null when there is no such entry.
 */
export async function entryPageOf(
  ctx: Context,
  scope: AccountScope,
  collection: string,
  handle: string,
): Promise<EntryPage | null> {
  const row = await ctx.db.entry.findFirst({
    where: { ...scope, handle, collection: { ...scope, handle: collection } },
    select: siteEntrySelect,
  });
  return row && entryPage(ctx, scope, row);
}

async function entryPage(ctx: Context, scope: AccountScope, row: SiteEntryRow): Promise<EntryPage> {
  const collection = await collectionOf(ctx, scope.accountId, row.collectionId);
  return {
    kind: "entry",
    template: row.templateHandle ?? collection.templateHandle ?? "index",
    layout: row.layoutHandle ?? collection.layoutHandle ?? "theme",
    collection: { handle: collection.handle, name: collection.name, schema_type: collection.schemaType },
    entry: await entryDrop(ctx, scope, row),
  };
}

/** Site order (content-api.md): position ascending, then the collection's `orderable` tiebreak, then ID. */
export function siteOrder(orderable: string): Prisma.EntryOrderByWithRelationInput[] {
  return orderBy(sortKeys(null, orderable));
}

/** published_at as a sort key: entries without one come last in either direction, on both databases. */
export function publishedAtOrder(direction: SortDirection): Prisma.EntryOrderByWithRelationInput[] {
  return orderBy([key("published_at", direction)]);
}
