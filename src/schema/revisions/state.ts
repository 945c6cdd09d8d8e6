// What a revision holds: the record under the API's field names, with its blueprint values as stored
// (entity fields as entry IDs, images as asset IDs or paths, never expanded), so that a restore needs
// nothing but the revision. Built from what the write itself knows: recording never reads the record back.
import { toJson } from "../json.ts";

export type RecordType = "entry" | "global" | "template";

export interface EntryRow {
  id: string;
  collectionId: string;
  blueprintId: string;
  handle: string;
  title: string;
  published: boolean;
  publishedAt: Date | null;
  includeInSitemap: boolean;
  position: number;
  templateHandle: string | null;
  layoutHandle: string | null;
  contentPath: string;
  routingOverride: string | null;
  createdAt: Date;
  updatedAt: Date;
  data: unknown;
}

export function entryState(row: EntryRow) {
  return toJson({
    id: row.id,
    collection_id: row.collectionId,
    blueprint_id: row.blueprintId,
    handle: row.handle,
    title: row.title,
    published: row.published,
    published_at: row.publishedAt?.toISOString() ?? null,
    include_in_sitemap: row.includeInSitemap,
    position: row.position,
    template_handle: row.templateHandle,
    layout_handle: row.layoutHandle,
    content_path: row.contentPath,
    routing_override: row.routingOverride,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    values: row.data ?? {},
  });
}

export interface GlobalRow {
  id: string;
  handle: string;
  name: string;
  blueprint: { id: string; handle: string; title: string; fields: unknown };
  data: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** A global owns its blueprint: its fields are part of its state. */
export function globalState(row: GlobalRow) {
  return toJson({
    id: row.id,
    handle: row.handle,
    name: row.name,
    blueprint: row.blueprint,
    values: row.data ?? {},
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}

export interface TemplateRow {
  id: string;
  handle: string;
  title: string;
  kind: string;
  html: string;
  createdAt: Date;
  updatedAt: Date;
}

export function templateState(row: TemplateRow) {
  return toJson({
    id: row.id,
    handle: row.handle,
    title: row.title,
    kind: row.kind,
    html: row.html,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}
