// The `navigations` section: each menu (navigationCreate's rules) with its whole item tree, held to the
// rules of navigationItemsReplace (planTree: every item's fields, the size and depth limits) and, like
// it, refusing a link to an entry that neither the file nor the account has. A menu whose title and
// tree are as stored is left alone; otherwise its items are replaced.
import { Problems } from "../errors.ts";
import { entryReference } from "../export/references.ts";
import { newId, prefixes } from "../ids.ts";
import type { TreeItemInput } from "../navigation-items/inputs.ts";
import { planTree } from "../navigation-items/tree-plan.ts";
import { issuePath } from "../validation.ts";
import { checkInput } from "./input-check.ts";
import { batches, firstTime, type ImportRun, listOf, sameJson, tally, type Write } from "./run.ts";

interface ItemRow {
  id: string;
  parentId: string | null;
  title: string;
  url: string | null;
  entryId: string | null;
  priority: number;
}

interface PlannedMenu {
  id: string;
  handle: string;
  title: string;
  create: boolean;
  /** The new tree, when it differs from the stored one. */
  items?: ItemRow[];
}

export async function planNavigations(run: ImportRun, section: unknown): Promise<Write> {
  const { ctx, scope } = run;
  const stored = new Map(
    (await ctx.db.navigation.findMany({ where: scope, select: { id: true, handle: true, title: true } })).map(
      (row) => [row.handle, row],
    ),
  );
  const menus: PlannedMenu[] = [];
  const seen = new Set<string>();
  for (const { at, record } of listOf(run, ["navigations"], section)) {
    const input = checkInput<{ handle: string; title: string }>(
      "NavigationCreateInput",
      record,
      at,
      run.problems,
    );
    const items = record.items ?? [];
    if (!Array.isArray(items) || !isTree(items)) {
      run.problems.add([...at, "items"], "must be a list of items, each a mapping with its `children` list");
      continue;
    }
    if (!input || !firstTime(run, seen, input.handle, at)) continue;
    const problems = new Problems();
    const rows: ItemRow[] = [];
    for (const { link, path, ...item } of planTree(items as TreeItemInput[], problems)) {
      const entry = link ? run.index.entries.get(entryReference(link.collection, link.entry)) : undefined;
      if (link && !entry)
        problems.add(
          issuePath([...path, "entry_handle"]),
          `no entry '${link.entry}' in collection '${link.collection}'`,
        );
      rows.push({ ...item, url: entry ? null : item.url, entryId: entry?.id ?? null });
    }
    run.problems.addDetails(at, problems.list);
    if (problems.list.length > 0) continue;
    const existing = stored.get(input.handle);
    if (!existing) {
      menus.push({ id: newId(prefixes.navigation), ...input, create: true, items: rows });
      tally(run, "navigations", "created");
      continue;
    }
    const current = await ctx.db.navigationItem.findMany({
      where: { ...scope, navigationId: existing.id },
      select: { id: true, parentId: true, title: true, url: true, entryId: true, priority: true },
    });
    const sameItems = sameJson(outline(current), outline(rows));
    if (sameItems && existing.title === input.title) {
      tally(run, "navigations", "unchanged");
      continue;
    }
    menus.push({ id: existing.id, ...input, create: false, ...(!sameItems && { items: rows }) });
    tally(run, "navigations", "updated");
  }
  return async (tx) => {
    const { now } = run;
    for (const menu of menus) {
      if (menu.create)
        await tx.navigation.create({
          data: {
            ...scope,
            id: menu.id,
            handle: menu.handle,
            title: menu.title,
            createdAt: now,
            updatedAt: now,
          },
        });
      else
        await tx.navigation.update({ where: { id: menu.id }, data: { title: menu.title, updatedAt: now } });
      if (!menu.items) continue;
      await tx.navigationItem.deleteMany({ where: { ...scope, navigationId: menu.id } });
      // In outline order, so each parent is there before its children.
      for (const chunk of batches(menu.items))
        await tx.navigationItem.createMany({
          data: chunk.map((row) => ({
            ...scope,
            ...row,
            navigationId: menu.id,
            createdAt: now,
            updatedAt: now,
          })),
        });
    }
  };
}

/** Every item a mapping, every `children` a list of such. */
function isTree(items: unknown[]): boolean {
  return items.every((item) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return false;
    const children = (item as { children?: unknown }).children;
    return children == null || (Array.isArray(children) && isTree(children));
  });
}

interface Outlined {
  title: string;
  url: string | null;
  entryId: string | null;
  children: Outlined[];
}

/** The tree without IDs, siblings in order: what two trees must share to be the same menu. */
function outline(rows: readonly ItemRow[], parentId: string | null = null): Outlined[] {
  return rows
    .filter((row) => row.parentId === parentId)
    .sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : 1))
    .map((row) => ({
      title: row.title,
      url: row.url,
      entryId: row.entryId,
      children: outline(rows, row.id),
    }));
}
