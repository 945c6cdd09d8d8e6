// A navigation's items as a tree, assembled in memory from one read of all of them. Siblings sort by
// priority ascending, then by creation (content-api.md, "Navigation items", rule 5).
//
// Two shapes (content-api.md, "Item response shapes"):
// - embedded in the single-navigation GET: {id, title, url, priority, created_at, updated_at, children?}
// - from the /items endpoints: the same plus parent_id and, for items linked to an entry, entity.
// `children` is there only when the item has children, and `entity` only when it is linked, which is
// why items are JSON values rather than GraphQL objects (whose every field would always be present).
// A linked item also names its entry as writes name it, `collection_handle` + `entry_handle`, in both
// shapes: its `url` is null, so without them a tree read and written back would lose every link.

export interface ItemRow {
  id: string;
  parentId: string | null;
  title: string;
  url: string | null;
  entryId: string | null;
  priority: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface LinkedEntry {
  id: string;
  handle: string;
  title: string;
  contentPath: string;
  /** Read where the item is answered to an editor (the API), not for a site's menus. */
  collection?: { handle: string };
}

/** A linked item's entry as the single-navigation GET reads it along with the item. */
export interface EntryHandles {
  handle: string;
  collection: { handle: string };
}

/** The keys that name a linked item's entry as writes take them; none for an unlinked one. */
function linkKeys(entry: { handle: string; collection?: { handle: string } } | null | undefined) {
  if (!entry?.collection) return {};
  return { collection_handle: entry.collection.handle, entry_handle: entry.handle };
}

export type ItemJson = Record<string, unknown>;

/** Children of each item (null: the top level), each list in sibling order. */
export type Forest = Map<string | null, ItemRow[]>;

export function compareSiblings(a: ItemRow, b: ItemRow): number {
  return (
    a.priority - b.priority ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export function forestOf(rows: readonly ItemRow[]): Forest {
  const forest: Forest = new Map();
  for (const row of [...rows].sort(compareSiblings)) {
    const siblings = forest.get(row.parentId);
    if (siblings) siblings.push(row);
    else forest.set(row.parentId, [row]);
  }
  return forest;
}

/**
 * Where an item leads on a site: a linked item to its entry's current path (null when the entry is gone
 * or, as `linked` holds only published entries when read for the public, unpublished).
 */
export function itemUrl(row: ItemRow, linked: ReadonlyMap<string, LinkedEntry>): string | null {
  return row.entryId ? (linked.get(row.entryId)?.contentPath ?? null) : row.url;
}

/** Every item in outline order: each item, then its subtree, siblings in order. */
export function outline(forest: Forest): ItemRow[] {
  const ordered: ItemRow[] = [];
  const stack = [...(forest.get(null) ?? [])].reverse();
  for (let row = stack.pop(); row; row = stack.pop()) {
    ordered.push(row);
    stack.push(...[...(forest.get(row.id) ?? [])].reverse());
  }
  return ordered;
}

/** An item row with the entry it links to, if any. */
export type EmbeddedRow = ItemRow & { entry?: EntryHandles | null };

function embeddedItem(row: EmbeddedRow, forest: Forest): ItemJson {
  const children = forest.get(row.id);
  return {
    id: row.id,
    title: row.title,
    url: row.entryId ? null : row.url,
    ...linkKeys(row.entry),
    priority: row.priority,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(children && { children: children.map((child) => embeddedItem(child, forest)) }),
  };
}

/** The `items` of the single-navigation GET. */
export function embeddedTree(rows: readonly EmbeddedRow[]): ItemJson[] {
  const forest = forestOf(rows);
  return (forest.get(null) ?? []).map((row) => embeddedItem(row, forest));
}

export interface ListedOptions {
  /** The entries linked items point at, by ID. */
  entries: ReadonlyMap<string, LinkedEntry>;
  /** Nest each item's subtree in `children`; without it the item comes alone (the flat list). */
  forest?: Forest;
}

/** An item as the /items endpoints answer it. */
export function listedItem(row: ItemRow, options: ListedOptions): ItemJson {
  const entry = row.entryId ? options.entries.get(row.entryId) : undefined;
  const children = options.forest?.get(row.id);
  return {
    id: row.id,
    title: row.title,
    url: row.entryId ? null : row.url,
    ...linkKeys(entry),
    priority: row.priority,
    parent_id: row.parentId,
    ...(entry && {
      entity: {
        type: "CollectionEntry",
        id: entry.id,
        handle: entry.handle,
        title: entry.title,
        url: entry.contentPath,
      },
    }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(children && { children: children.map((child) => listedItem(child, options)) }),
  };
}

/** IDs of the item and of everything below it. */
export function subtreeIds(forest: Forest, id: string): Set<string> {
  const ids = new Set<string>();
  const stack = [id];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    ids.add(current);
    for (const child of forest.get(current) ?? []) stack.push(child.id);
  }
  return ids;
}
