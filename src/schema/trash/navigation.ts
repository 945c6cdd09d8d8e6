// A navigation in the trash: its row and every item of its tree. Item writes first take the navigation's
// row (lockNavigation), so taking it here first gives a tree no item write is changing. On restore, links
// to entries deleted since are dropped, as deleting those entries would have dropped them.
import type { Navigation, NavigationItem } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { beforeDelete } from "../webhooks/outbox.ts";
import { handleTaken, inserting } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

interface NavigationSnapshot {
  row: Navigation;
  items: NavigationItem[];
}

export async function trashNavigation(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("navigation", () =>
    ctx.db.$transaction(async (tx) => {
      const row = await tx.navigation.findFirst({ where: { ...scope, id } });
      if (!row) throw ApiError.notFound("Navigation");
      // The row lock, taken only if the row is still as read (its updated_at unchanged).
      const locked = await tx.navigation.updateMany({
        where: { id, updatedAt: row.updatedAt },
        data: { updatedAt: row.updatedAt },
      });
      if (locked.count === 0) return undefined;
      const event = { type: "navigation.deleted", kind: "navigation", id } as const;
      const deleted = await beforeDelete(ctx, tx, scope.accountId, event);
      const items = await tx.navigationItem.findMany({ where: { navigationId: id } });
      await tx.navigation.deleteMany({ where: { id } });
      await deleted();
      const item = { type: "navigation", recordId: id, handle: row.handle, title: row.title } as const;
      await putInTrash(tx, scope, { ...item, snapshot: { row, items } });
      return true;
    }),
  );
}

export async function restoreNavigation(tx: Tx, scope: AccountScope, snapshot: unknown): Promise<string> {
  const stored = snapshot as NavigationSnapshot;
  const row = revived<Navigation>(stored.row);
  const items = stored.items.map((item) => revived<NavigationItem>(item));
  const sameHandle = { ...scope, handle: row.handle };
  if (await tx.navigation.findFirst({ where: sameHandle, select: { id: true } }))
    throw handleTaken("navigation");
  const linked = items.flatMap((item) => (item.entryId ? [item.entryId] : []));
  const alive = await tx.entry.findMany({ where: { ...scope, id: { in: linked } }, select: { id: true } });
  const entries = new Set(alive.map((entry) => entry.id));
  await inserting("navigation", () => tx.navigation.create({ data: row }));
  const rows = parentsFirst(items).map((item) => ({
    ...item,
    entryId: item.entryId && entries.has(item.entryId) ? item.entryId : null,
  }));
  if (rows.length > 0) await tx.navigationItem.createMany({ data: rows });
  return row.id;
}

/** Items ordered so that each comes after its parent (the parent's foreign key holds on every insert). */
function parentsFirst(items: NavigationItem[]): NavigationItem[] {
  const ordered: NavigationItem[] = [];
  const placed = new Set<string | null>([null]);
  let pending = items;
  while (pending.length > 0) {
    const ready = pending.filter((item) => placed.has(item.parentId));
    // A parent missing from the snapshot cannot happen (the tree is read whole); stop rather than loop.
    if (ready.length === 0) break;
    for (const item of ready) placed.add(item.id);
    ordered.push(...ready);
    pending = pending.filter((item) => !placed.has(item.id));
  }
  return ordered;
}
