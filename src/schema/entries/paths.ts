// content_path: the entry's URL path, generated from its collection's routing (content-api.md,
// "Routing placeholders"). Stored, because the site looks entries up by it; regenerated when the
// handle, the date, the routing or a parent's handle changes.
import type { Db } from "../../db/client.ts";
import type { AccountScope } from "../access.ts";
import { fieldTokens } from "../collections/routing.ts";
import { ApiError } from "../errors.ts";

export interface PathCollection {
  routing: string;
  rootRouting: boolean;
}

export interface PathEntry {
  handle: string;
  publishedAt: Date | null;
  createdAt: Date;
  routingOverride: string | null;
}

/** Handles of the entries that entity fields point at, by field handle. */
export type ParentHandles = Record<string, string | undefined>;

/** The path, or the name of the entity field that is missing to build it. */
export function contentPath(
  collection: PathCollection,
  entry: PathEntry,
  parents: ParentHandles,
): { path: string } | { missing: string } {
  if (entry.routingOverride) return { path: `/${entry.routingOverride.replace(/^\/+/, "")}` };
  if (collection.rootRouting && entry.handle === "index") return { path: "/" };
  const date = entry.publishedAt ?? entry.createdAt;
  const dateParts: Record<string, string> = {
    year: String(date.getUTCFullYear()).padStart(4, "0"),
    month: String(date.getUTCMonth() + 1).padStart(2, "0"),
    day: String(date.getUTCDate()).padStart(2, "0"),
  };
  const segments: string[] = [];
  for (const segment of collection.routing.split("/").filter(Boolean)) {
    if (!segment.startsWith(":")) {
      segments.push(segment);
      continue;
    }
    const token = segment.slice(1);
    const value = token === "handle" ? entry.handle : (dateParts[token] ?? parents[token]);
    if (!value) return { missing: token };
    segments.push(value);
  }
  return { path: `/${segments.join("/")}` };
}

type Tx = Pick<Db, "entry" | "collection" | "entryReference">;

const pathSelect = {
  id: true,
  handle: true,
  publishedAt: true,
  createdAt: true,
  routingOverride: true,
  contentPath: true,
  version: true,
  references: { select: { field: true, to: { select: { handle: true } } } },
} as const;

/**
 * Regenerates the paths of the given entries of one collection (all of them when `ids` is absent). An
 * entry the routing has no value for is a 422, or, given `unroutable`, told there and left as it is. An
 * entry saved since it was read here is left to that save, which made its own path.
 */
export async function refreshPaths(
  tx: Tx,
  collectionId: string,
  ids?: string[],
  unroutable?: (handle: string, missing: string) => void,
): Promise<void> {
  const collection = await tx.collection.findFirst({ where: { id: collectionId } });
  if (!collection) return;
  const entries = await tx.entry.findMany({
    where: { collectionId, ...(ids && { id: { in: ids } }) },
    select: pathSelect,
  });
  for (const entry of entries) {
    const parents = Object.fromEntries(entry.references.map((ref) => [ref.field, ref.to.handle]));
    const result = contentPath(collection, entry, parents);
    if ("missing" in result) {
      if (!unroutable)
        throw ApiError.invalid("routing", `entry '${entry.handle}' has no value for :${result.missing}`);
      unroutable(entry.handle, result.missing);
      continue;
    }
    if (result.path !== entry.contentPath) {
      const unchanged = { id: entry.id, version: entry.version };
      await tx.entry.updateMany({ where: unchanged, data: { contentPath: result.path } });
    }
  }
}

/** After an entry's handle changed: children whose routing uses it as `:<field>` move with it. */
export async function refreshChildPaths(
  tx: Tx,
  scope: AccountScope,
  parentId: string,
  unroutable?: (handle: string, missing: string) => void,
): Promise<void> {
  const children = await tx.entryReference.findMany({
    where: { ...scope, toId: parentId },
    select: {
      field: true,
      from: { select: { id: true, collectionId: true, collection: { select: { routing: true } } } },
    },
  });
  const byCollection = new Map<string, string[]>();
  for (const { field, from } of children) {
    if (!fieldTokens(from.collection.routing).includes(field)) continue;
    byCollection.set(from.collectionId, [...(byCollection.get(from.collectionId) ?? []), from.id]);
  }
  for (const [collectionId, ids] of byCollection) await refreshPaths(tx, collectionId, ids, unroutable);
}
