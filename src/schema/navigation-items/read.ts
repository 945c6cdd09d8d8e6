// Reading a navigation's items: all of them in one query (trees are assembled in memory, see tree.ts),
// and the entries linked items point at in one more.
import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { ApiError } from "../errors.ts";
import {
  type Forest,
  forestOf,
  type ItemJson,
  type ItemRow,
  type LinkedEntry,
  listedItem,
  subtreeIds,
} from "./tree.ts";

type Reader = Pick<Db, "navigationItem" | "entry">;

const itemColumns = {
  id: true,
  parentId: true,
  title: true,
  url: true,
  entryId: true,
  priority: true,
  createdAt: true,
  updatedAt: true,
} as const;

export function readItems(db: Reader, scope: AccountScope, navigationId: string): Promise<ItemRow[]> {
  return db.navigationItem.findMany({ where: { ...scope, navigationId }, select: itemColumns });
}

/** The items of several navigations, each as a forest, and the entries they link to. */
export interface NavigationForests {
  /** By navigation ID; a navigation without items has none here. */
  forests: Map<string, Forest>;
  linked: Map<string, LinkedEntry>;
}

/** An item with the navigation it belongs to. */
export type NavigationItemRow = ItemRow & { navigationId: string };

/** The items of these navigations (without `navigationIds`: of all the account's), in one query. */
export function readNavigationItems(
  db: Reader,
  scope: AccountScope,
  navigationIds?: readonly string[],
): Promise<NavigationItemRow[]> {
  return db.navigationItem.findMany({
    where: { ...scope, ...(navigationIds && { navigationId: { in: [...navigationIds] } }) },
    select: { ...itemColumns, navigationId: true },
  });
}

/**
 * The items of these navigations (without `navigationIds`: of all the account's) in one query, and the
 * entries they link to in one more: `navigationForests`.
 */
export async function readNavigationForests(
  db: Reader,
  scope: AccountScope,
  shown: Prisma.EntryWhereInput,
  navigationIds?: readonly string[],
): Promise<NavigationForests> {
  return navigationForests(db, scope, await readNavigationItems(db, scope, navigationIds), shown);
}

/**
 * `items` as a forest per navigation, and the entries they link to in one query. This is the public
 * reading (site menus, contentNavigation), so only entries `shown` selects (site/scope.ts `visible`) are
 * linked: an item pointing at an unpublished or scheduled entry reads like one whose entry is gone (no
 * entry, url null), revealing neither the entry nor its path. The items may be kept (a site's menus);
 * which entries they link to is read every time, as of the request's `shown`.
 */
export async function navigationForests(
  db: Reader,
  scope: AccountScope,
  items: readonly NavigationItemRow[],
  shown: Prisma.EntryWhereInput,
): Promise<NavigationForests> {
  const linked = await readLinkedEntries(db, scope, items, shown);
  const byNavigation = new Map<string, ItemRow[]>();
  for (const item of items) {
    const rows = byNavigation.get(item.navigationId);
    if (rows) rows.push(item);
    else byNavigation.set(item.navigationId, [item]);
  }
  const forests = new Map<string, Forest>();
  for (const [navigationId, rows] of byNavigation) forests.set(navigationId, forestOf(rows));
  return { forests, linked };
}

/** The entries these items link to, by ID; `only` narrows them (the public reading: visible ones). */
export async function readLinkedEntries(
  db: Reader,
  scope: AccountScope,
  rows: Iterable<ItemRow>,
  only: Prisma.EntryWhereInput = {},
): Promise<Map<string, LinkedEntry>> {
  return linkedEntries(db, scope, rows, only, false);
}

/** The entries these items link to, by ID, with their collections' handles: the editor's reading. */
export function readLinkedEntryHandles(
  db: Reader,
  scope: AccountScope,
  rows: Iterable<ItemRow>,
): Promise<Map<string, LinkedEntry>> {
  return linkedEntries(db, scope, rows, {}, true);
}

async function linkedEntries(
  db: Reader,
  scope: AccountScope,
  rows: Iterable<ItemRow>,
  only: Prisma.EntryWhereInput,
  collections: boolean,
): Promise<Map<string, LinkedEntry>> {
  const ids = new Set<string>();
  for (const row of rows) if (row.entryId) ids.add(row.entryId);
  if (ids.size === 0) return new Map();
  const entries = await db.entry.findMany({
    where: { ...scope, ...only, id: { in: [...ids] } },
    select: {
      id: true,
      handle: true,
      title: true,
      contentPath: true,
      ...(collections && { collection: { select: { handle: true } } }),
    },
  });
  return new Map(entries.map((entry) => [entry.id, entry]));
}

/** One item with its subtree in `children`, as the /items endpoints answer it; 404 when not there. */
export async function readItem(
  db: Reader,
  scope: AccountScope,
  navigationId: string,
  id: string,
): Promise<ItemJson> {
  const rows = await readItems(db, scope, navigationId);
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) throw ApiError.notFound("Navigation item");
  const forest = forestOf(rows);
  const subtree = subtreeIds(forest, id);
  const entries = await readLinkedEntryHandles(
    db,
    scope,
    rows.filter((candidate) => subtree.has(candidate.id)),
  );
  return listedItem(row, { entries, forest });
}
