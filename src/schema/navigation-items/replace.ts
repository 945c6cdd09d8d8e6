// Replaces a navigation's whole item tree in one transaction (the tool interface's `navigations_save`).
// Nothing is written unless every item passes: field rules as on create, and, unlike create (rule 4), a
// link to an unknown entry is refused (422 on its `entry_handle`) as on update: whoever sends a whole
// tree wants each link in it, and a link silently dropped would only show later as a dead menu item.
// Items sent with their `id` are kept (changed in place when they differ), those not sent are deleted,
// those without one are created: a tree read from the navigation and sent back as it is changes nothing,
// not even the navigation's `updated_at`, and records no event.
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { Problems } from "../errors.ts";
import { findNavigation } from "../navigations/find.ts";
import { NavigationWithItemsRef } from "../navigations/type.ts";
import { issuePath } from "../validation.ts";
import { NavigationTreeItemInput, TREE_DEPTH_LIMIT, TREE_ITEMS_LIMIT } from "./inputs.ts";
import { itemsChanged } from "./items-changed.ts";
import { readItems } from "./read.ts";
import { findLinkedEntry, holdNavigation, lockNavigation } from "./rules.ts";
import type { ItemRow } from "./tree.ts";
import { type KeptPlannedItem, planKeptTree, settlePriorities } from "./tree-plan.ts";

type Tx = Parameters<typeof findLinkedEntry>[0];
type WrittenItem = Pick<ItemRow, "id" | "parentId" | "title" | "url" | "entryId" | "priority">;

/** The entry each linked item names, by item ID; an unknown one is a problem on its `entry_handle`. */
async function linkedEntries(
  tx: Tx,
  scope: AccountScope,
  planned: readonly KeptPlannedItem[],
  problems: Problems,
): Promise<Map<string, string>> {
  // One lookup per distinct pair: a menu often links one entry from several places.
  const found = new Map<string, string | undefined>();
  const byItem = new Map<string, string>();
  for (const { id, link, path } of planned) {
    if (!link) continue;
    const key = JSON.stringify([link.collection, link.entry]);
    if (!found.has(key)) found.set(key, await findLinkedEntry(tx, scope, link.collection, link.entry));
    const entryId = found.get(key);
    if (entryId) byItem.set(id, entryId);
    else
      problems.add(
        issuePath([...path, "entry_handle"]),
        `no entry '${link.entry}' in collection '${link.collection}'`,
      );
  }
  return byItem;
}

function differs(stored: ItemRow, item: WrittenItem): boolean {
  return (
    stored.parentId !== item.parentId ||
    stored.title !== item.title ||
    stored.url !== item.url ||
    stored.entryId !== item.entryId ||
    stored.priority !== item.priority
  );
}

builder.mutationField("navigationItemsReplace", (t) =>
  t.prismaField({
    type: NavigationWithItemsRef,
    description: "Replaces all of the navigation's items with `items`; answers it as `navigation` does.",
    args: {
      account_id: accountArg(t.arg),
      navigation_id: idArg(t.arg, "navigation"),
      items: t.arg({
        type: [NavigationTreeItemInput],
        required: true,
        description:
          `The new top-level items in order, each with its \`children\`; at most ${TREE_ITEMS_LIMIT} items ` +
          `in all and ${TREE_DEPTH_LIMIT} levels. Items with an \`id\` are kept, the navigation's other ` +
          "items deleted. Nothing changes when any item is invalid, a link to an unknown entry included.",
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      const problems = new Problems();
      const planned = planKeptTree(args.items, problems);
      await ctx.db.$transaction(async (tx) => {
        await holdNavigation(tx, scope, navigation.id);
        const stored = new Map((await readItems(tx, scope, navigation.id)).map((row) => [row.id, row]));
        const entries = await linkedEntries(tx, scope, planned, problems);
        for (const { id, kept, path } of planned)
          if (kept && !stored.has(id))
            problems.add(issuePath([...path, "id"]), `no item '${id}' in this navigation`);
        problems.throwIfAny();
        const now = new Date();
        const priorities = settlePriorities(planned, stored, now);
        const items: WrittenItem[] = planned.map(({ id, parentId, title, url }) => {
          const entryId = entries.get(id) ?? null;
          return {
            id,
            parentId,
            title,
            url: entryId ? null : url,
            entryId,
            priority: priorities.get(id) ?? 0,
          };
        });
        const created = items.filter((item) => !stored.has(item.id));
        const changed = items.filter((item) => {
          const row = stored.get(item.id);
          return row !== undefined && differs(row, item);
        });
        const sent = new Set(items.map((item) => item.id));
        const removed = [...stored.keys()].filter((id) => !sent.has(id));
        if (created.length + changed.length + removed.length === 0) return;
        await itemsChanged(ctx, tx, scope, navigation.id, async () => {
          await lockNavigation(tx, scope, navigation.id);
          // New items first (in outline order, each parent before its children), so that kept items can
          // move under them; then the kept ones, so that none is below an item about to be deleted, whose
          // children the parent key's cascade would take with it.
          if (created.length > 0)
            await tx.navigationItem.createMany({
              data: created.map((item) => ({
                ...scope,
                ...item,
                navigationId: navigation.id,
                createdAt: now,
                updatedAt: now,
              })),
            });
          for (const { id, ...item } of changed)
            await tx.navigationItem.updateMany({ where: { ...scope, id }, data: item });
          if (removed.length > 0)
            await tx.navigationItem.deleteMany({ where: { ...scope, id: { in: removed } } });
        });
      });
      return findNavigation(ctx, scope, navigation.id, query);
    },
  }),
);
