// What the account holds, read once before planning, by the handles the document uses, and what the
// plan adds to it: each planned record gets its ID up front, so that a reference to a record created by
// the same import resolves like one to a stored record, before anything is written.
import type { AccountScope } from "../access.ts";
import { type FieldDefinition, readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { entryReference } from "../export/references.ts";

export interface IndexedBlueprint {
  id: string;
  handle: string;
  title: string;
  fields: readonly FieldDefinition[];
  collectionId: string | null;
  /** The global owning it, by handle. */
  globalHandle: string | null;
  /** Made by this import. */
  planned?: boolean;
}

export interface IndexedCollection {
  id: string;
  handle: string;
  routing: string;
  rootRouting: boolean;
  /** The stored row (undefined when planned). */
  stored?: Awaited<ReturnType<typeof readCollections>>[number];
  /** The collection's blueprints, its default (new entries') one first. */
  blueprints: IndexedBlueprint[];
}

export interface IndexedEntry {
  id: string;
  collectionId: string;
  handle: string;
  contentPath: string;
  /** The stored row when there is one. */
  stored?: Awaited<ReturnType<typeof readEntries>>[number];
}

export interface SiteIndex {
  collections: Map<string, IndexedCollection>;
  blueprints: Map<string, IndexedBlueprint>;
  templates: Map<string, { id: string; title: string; kind: string; html: string; planned?: boolean }>;
  /** By `folder/filename` (the document's asset reference). */
  assets: Map<string, { id: string; path: string; filename: string; contentType: string; fileSize: number }>;
  /** By `collection_handle:entry_handle`. */
  entries: Map<string, IndexedEntry>;
  /** Entry ID -> its handle (a routing's `:field` is the parent's handle). */
  entryHandles: Map<string, string>;
}

function readCollections(ctx: Context, scope: AccountScope) {
  return ctx.db.collection.findMany({ where: scope, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

function readEntries(ctx: Context, scope: AccountScope) {
  return ctx.db.entry.findMany({
    where: scope,
    select: {
      id: true,
      collectionId: true,
      blueprintId: true,
      handle: true,
      title: true,
      published: true,
      publishedAt: true,
      includeInSitemap: true,
      position: true,
      templateHandle: true,
      layoutHandle: true,
      routingOverride: true,
      contentPath: true,
      data: true,
      version: true,
      createdAt: true,
      updatedAt: true,
    },
  });
}

export async function readSiteIndex(ctx: Context, scope: AccountScope): Promise<SiteIndex> {
  const [collections, blueprints, templates, assets, entries] = await Promise.all([
    readCollections(ctx, scope),
    ctx.db.blueprint.findMany({
      where: scope,
      orderBy: { id: "asc" },
      select: {
        id: true,
        handle: true,
        title: true,
        fields: true,
        collectionId: true,
        global: { select: { handle: true } },
      },
    }),
    ctx.db.template.findMany({
      where: scope,
      select: { id: true, handle: true, title: true, kind: true, html: true },
    }),
    ctx.db.asset.findMany({
      where: scope,
      select: { id: true, path: true, filename: true, contentType: true, fileSize: true },
    }),
    readEntries(ctx, scope),
  ]);
  const index: SiteIndex = {
    collections: new Map(),
    blueprints: new Map(),
    templates: new Map(templates.map((row) => [row.handle, row])),
    assets: new Map(assets.map((row) => [row.path ? `${row.path}/${row.filename}` : row.filename, row])),
    entries: new Map(),
    entryHandles: new Map(),
  };
  for (const row of blueprints) {
    const { global, fields, ...rest } = row;
    index.blueprints.set(row.handle, {
      ...rest,
      fields: readFields(fields),
      globalHandle: global?.handle ?? null,
    });
  }
  const collectionHandles = new Map<string, string>();
  for (const row of collections) {
    collectionHandles.set(row.id, row.handle);
    const own = [...index.blueprints.values()].filter((blueprint) => blueprint.collectionId === row.id);
    index.collections.set(row.handle, { ...row, stored: row, blueprints: own });
  }
  for (const row of entries) {
    const collection = collectionHandles.get(row.collectionId) ?? "";
    index.entries.set(entryReference(collection, row.handle), { ...row, stored: row });
    index.entryHandles.set(row.id, row.handle);
  }
  return index;
}
