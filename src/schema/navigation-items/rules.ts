// Rules shared by item create and update: what a link names, where an item goes among its siblings, and
// the tree's invariants: an item is never its own ancestor, and the tree stays within the bounds a whole
// tree written at once keeps (TREE_DEPTH_LIMIT, TREE_ITEMS_LIMIT), so that an account's export always
// imports back. Item writes run in a transaction that
// first takes the navigation's row (see lockNavigation), so they apply one after another per navigation.
import type { Db } from "../../db/client.ts";
import type { AccountScope } from "../access.ts";
import { compareAndSet } from "../compare-and-set.ts";
import { ApiError, type Problems } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { TREE_DEPTH_LIMIT, TREE_ITEMS_LIMIT, TREE_TOO_DEEP, TREE_TOO_LARGE } from "./inputs.ts";
import { type Forest, forestOf, type ItemRow, subtreeIds } from "./tree.ts";

type Tx = Pick<Db, "navigation" | "navigationItem" | "entry">;

const INT_MAX = 2_147_483_647;

/**
 * Serializes writers of one navigation's tree: the row update holds the navigation's row lock until the
 * transaction ends (PostgreSQL; the embedded database runs one transaction at a time anyway). The
 * navigation's `updated_at` thereby records the last change to its items too. 404 when the navigation
 * was deleted meanwhile.
 */
export async function lockNavigation(tx: Tx, scope: AccountScope, navigationId: string): Promise<void> {
  const { count } = await tx.navigation.updateMany({
    where: { ...scope, id: navigationId },
    data: { updatedAt: new Date() },
  });
  if (count === 0) throw ApiError.notFound("Navigation");
}

/**
 * Serializes writers of one navigation's tree as lockNavigation does, leaving `updated_at` as it is (a
 * write that turns out to change nothing changes nothing): the row is written with the `updated_at` just
 * read, and read again when another writer changed it in between. 404 when the navigation is gone.
 */
export async function holdNavigation(tx: Tx, scope: AccountScope, navigationId: string): Promise<void> {
  await compareAndSet("navigation", async () => {
    const row = await tx.navigation.findFirst({
      where: { ...scope, id: navigationId },
      select: { updatedAt: true },
    });
    if (!row) throw ApiError.notFound("Navigation");
    const { count } = await tx.navigation.updateMany({
      where: { ...scope, id: navigationId, updatedAt: row.updatedAt },
      data: { updatedAt: row.updatedAt },
    });
    return count === 1 ? true : undefined;
  });
}

/** The entry a collection (handle or ID) and entry (handle or ID) pair names, if any. */
export async function findLinkedEntry(
  tx: Tx,
  scope: AccountScope,
  collection: string,
  entry: string,
): Promise<string | undefined> {
  const found = await tx.entry.findFirst({
    where: {
      ...scope,
      ...idOrHandle(entry, prefixes.entry),
      collection: { is: { ...scope, ...idOrHandle(collection, prefixes.collection) } },
    },
    select: { id: true },
  });
  return found?.id;
}

/** The priority that puts an item after the current children of `parentId` (`except` not counted). */
export function afterSiblings(rows: readonly ItemRow[], parentId: string | null, except?: string): number {
  let last: number | undefined;
  for (const row of rows) {
    if (row.parentId === parentId && row.id !== except && (last === undefined || row.priority > last)) {
      last = row.priority;
    }
  }
  return last === undefined ? 0 : Math.min(last + 1, INT_MAX);
}

/** Refuses a new item under `parentId` (null: the top level) that would break the tree's bounds. */
export function checkNewItem(rows: readonly ItemRow[], parentId: string | null, problems: Problems): void {
  if (rows.length >= TREE_ITEMS_LIMIT) problems.add("navigation_id", TREE_TOO_LARGE);
  else checkDepth(rows, parentId, 1, problems);
}

/** Refuses a subtree `height` levels tall under `parentId` when it would reach below TREE_DEPTH_LIMIT. */
function checkDepth(rows: readonly ItemRow[], parentId: string | null, height: number, problems: Problems) {
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  let depth = 0;
  for (let at: string | null | undefined = parentId; at; at = parentOf.get(at)) depth++;
  if (depth + height > TREE_DEPTH_LIMIT) problems.add("parent_id", TREE_TOO_DEEP);
}

/** Levels of the subtree of `id`, itself included. */
function heightOf(forest: Forest, id: string): number {
  let height = 0;
  const stack = [{ id, level: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    height = Math.max(height, next.level);
    for (const child of forest.get(next.id) ?? []) stack.push({ id: child.id, level: next.level + 1 });
  }
  return height;
}

export interface Placement {
  parentId?: string | null;
  priority?: number;
}

/**
 * The parent and priority columns that move `item` as asked. `parentId` must be null or an item of the
 * same navigation (callers check); undefined leaves the parent as it is. An item moved to another parent
 * without a priority goes after its new siblings.
 */
export function placeItem(
  rows: readonly ItemRow[],
  item: ItemRow,
  parentId: string | null | undefined,
  priority: number | null | undefined,
  problems: Problems,
): Placement {
  const placement: Placement = {};
  if (parentId !== undefined && parentId !== item.parentId) {
    const forest = forestOf(rows);
    if (parentId !== null && subtreeIds(forest, item.id).has(parentId)) {
      problems.add("parent_id", "would make the item its own ancestor");
      return placement;
    }
    checkDepth(rows, parentId, heightOf(forest, item.id), problems);
    placement.parentId = parentId;
  }
  if (priority != null) placement.priority = priority;
  else if (placement.parentId !== undefined)
    placement.priority = afterSiblings(rows, parentId ?? null, item.id);
  return placement;
}
