// Reading a navigation's items: all of them in one query (trees are assembled in memory, see tree.ts),
// and the entries linked items point at in one more.
import type { Db } from "../../db/client.ts";
import type { AccountScope } from "../access.ts";
import { ApiError } from "../errors.ts";
import { forestOf, type ItemJson, type ItemRow, type LinkedEntry, listedItem, subtreeIds } from "./tree.ts";

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

/** The entries these items link to, by ID. */
export async function readLinkedEntries(
  db: Reader,
  scope: AccountScope,
  rows: Iterable<ItemRow>,
): Promise<Map<string, LinkedEntry>> {
  const ids = new Set<string>();
  for (const row of rows) if (row.entryId) ids.add(row.entryId);
  if (ids.size === 0) return new Map();
  const entries = await db.entry.findMany({
    where: { ...scope, id: { in: [...ids] } },
    select: { id: true, handle: true, title: true, contentPath: true },
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
  const entries = await readLinkedEntries(
    db,
    scope,
    rows.filter((candidate) => subtree.has(candidate.id)),
  );
  return listedItem(row, { entries, forest });
}
