// An entry in the trash: its row, its entity references both ways and the navigation items that linked to
// it. The delete drops the reference rows (cascade) and unlinks the items (entryId set to null); a restore
// puts back those whose other end is still there.
import type { Entry, EntryReference } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { refreshPaths } from "../entries/paths.ts";
import { requireFreeOverridePath } from "../entries/routing-override.ts";
import { ApiError } from "../errors.ts";
import { toJson } from "../json.ts";
import { beforeDelete } from "../webhooks/outbox.ts";
import { handleTaken, inserting, parentGone } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

interface EntrySnapshot {
  row: Entry;
  references: EntryReference[];
  navItemIds: string[];
}

/** Deletes the entry into the trash; a concurrent write to it makes this retry on the fresh row. */
export async function trashEntry(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("entry", () =>
    ctx.db.$transaction(async (tx) => {
      const found = await tx.entry.findFirst({
        where: { ...scope, id },
        include: { references: true, referrers: true, navItems: { select: { id: true } } },
      });
      if (!found) throw ApiError.notFound("Entry");
      const { references, referrers, navItems, ...row } = found;
      const event = { type: "entry.deleted", kind: "entry", id, collectionId: row.collectionId } as const;
      const deleted = await beforeDelete(ctx, tx, scope.accountId, event);
      const { count } = await tx.entry.deleteMany({ where: { id, version: row.version } });
      if (count === 0) return undefined;
      await deleted();
      // An entry that names itself is in both lists once.
      const links = [...references, ...referrers.filter((ref) => ref.fromId !== id)];
      const snapshot = { row, references: links, navItemIds: navItems.map((item) => item.id) };
      await putInTrash(tx, scope, {
        type: "entry",
        recordId: id,
        handle: row.handle,
        title: row.title,
        snapshot,
      });
      return true;
    }),
  );
}

export async function restoreEntry(
  tx: Tx,
  scope: AccountScope,
  snapshot: unknown,
  ctx: Context,
): Promise<string> {
  const { row: stored, references, navItemIds } = snapshot as EntrySnapshot;
  const row = revived<Entry>(stored);
  // Under the account's lock (account-lock.ts): its override path is still free, and a template it named
  // that was deleted while it was away is named no more (the collection's applies).
  await requireFreeOverridePath(ctx, tx, scope, row.id, row.routingOverride);
  await lockAccount(ctx, tx, scope.accountId);
  const named = [row.templateHandle, row.layoutHandle].filter((handle): handle is string => handle !== null);
  const kept = new Set(
    (
      await tx.template.findMany({ where: { ...scope, handle: { in: named } }, select: { handle: true } })
    ).map((template) => template.handle),
  );
  if (row.templateHandle !== null && !kept.has(row.templateHandle)) row.templateHandle = null;
  if (row.layoutHandle !== null && !kept.has(row.layoutHandle)) row.layoutHandle = null;
  const collection = { ...scope, id: row.collectionId };
  if (!(await tx.collection.findFirst({ where: collection, select: { id: true } })))
    throw parentGone("entry", "collection");
  if (!(await tx.blueprint.findFirst({ where: { ...scope, id: row.blueprintId }, select: { id: true } })))
    throw parentGone("entry", "blueprint");
  const sameHandle = { ...scope, collectionId: row.collectionId, handle: row.handle };
  if (await tx.entry.findFirst({ where: sameHandle, select: { id: true } })) throw handleTaken("entry");
  // A restore is a write: its version moves on, as the revision it records is numbered by (save.ts).
  const data = { ...row, version: row.version + 1, data: toJson(row.data ?? {}) };
  await inserting("entry", () => tx.entry.create({ data }));
  await reattachReferences(tx, scope, row, references);
  // Items re-pointed or given a URL since keep what they were given.
  await tx.navigationItem.updateMany({
    where: { ...scope, id: { in: navItemIds }, entryId: null, url: null },
    data: { entryId: row.id },
  });
  // The collection's routing may have changed while the entry was away; a parent it lost keeps the old path.
  await refreshPaths(tx, row.collectionId, [row.id]).catch((error) => {
    if (!(error instanceof ApiError)) throw error;
  });
  return row.id;
}

/**
 * References whose other entry still exists. A referrer that was saved since with another value in that
 * field no longer names this entry: its reference stays dropped.
 */
async function reattachReferences(tx: Tx, scope: AccountScope, row: Entry, references: EntryReference[]) {
  const others = [...new Set(references.map((ref) => (ref.fromId === row.id ? ref.toId : ref.fromId)))];
  const alive = await tx.entry.findMany({
    where: { ...scope, id: { in: others } },
    select: { id: true, data: true },
  });
  const dataOf = new Map(alive.map((entry) => [entry.id, entry.data]));
  dataOf.set(row.id, row.data);
  const kept = references.filter((ref) => {
    const other = ref.fromId === row.id ? ref.toId : ref.fromId;
    return dataOf.has(other) && names(dataOf.get(ref.fromId), ref.field, ref.toId);
  });
  if (kept.length > 0) await tx.entryReference.createMany({ data: kept });
}

/** Whether stored values hold `id` in `field` (one entity, or a list of them). */
function names(data: unknown, field: string, id: string): boolean {
  const value = (data as Record<string, unknown> | null)?.[field];
  return value === id || (Array.isArray(value) && value.includes(id));
}
