// PUT/PATCH /navigations/:navigation_id/items/:id: only the sent fields change. Unlike create, an unknown
// collection/entry pair (422 on entry_handle) or parent (422 on parent_id) is refused (rule 3), and so is
// a parent inside the item's own subtree.
import type { Prisma } from "../../generated/sqlite/client.ts";
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError, Problems } from "../errors.ts";
import { findNavigation } from "../navigations/find.ts";
import { itemIdArg, type NavigationItemUpdate, NavigationItemUpdateInput } from "./inputs.ts";
import { itemsChanged } from "./items-changed.ts";
import { readItem, readItems } from "./read.ts";
import { findLinkedEntry, lockNavigation, placeItem } from "./rules.ts";
import type { ItemRow } from "./tree.ts";

/**
 * The link the update asks for: undefined when it names none, `null` to unlink. `entry_handle` alone
 * looks in the collection of the entry the item links to now.
 */
async function linkChange(
  tx: Parameters<typeof findLinkedEntry>[0],
  scope: AccountScope,
  item: ItemRow,
  input: NavigationItemUpdate,
  problems: Problems,
): Promise<string | null | undefined> {
  const { collection_handle: collection, entry_handle: entry } = input;
  if (collection === undefined && entry === undefined) return undefined;
  if (entry === null || (entry === undefined && collection === null)) return null;
  if (entry === undefined) {
    problems.add("entry_handle", "is required with collection_handle");
    return undefined;
  }
  let inCollection = collection;
  if (inCollection == null && item.entryId) {
    const current = await tx.entry.findFirst({
      where: { ...scope, id: item.entryId },
      select: { collectionId: true },
    });
    inCollection = current?.collectionId;
  }
  if (inCollection == null) {
    problems.add("collection_handle", "is required with entry_handle");
    return undefined;
  }
  const entryId = await findLinkedEntry(tx, scope, inCollection, entry);
  if (!entryId) {
    problems.add("entry_handle", `no entry '${entry}' in collection '${collection ?? inCollection}'`);
    return undefined;
  }
  return entryId;
}

builder.mutationField("navigationItemUpdate", (t) =>
  t.field({
    type: "JSON",
    description: "Updates the item; answers it as the /items endpoints do.",
    args: {
      account_id: accountArg(t.arg),
      navigation_id: idArg(t.arg, "navigation"),
      id: itemIdArg(t.arg),
      input: t.arg({ type: NavigationItemUpdateInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      const input = args.input;
      await ctx.db.$transaction((tx) =>
        itemsChanged(ctx, tx, scope, navigation.id, async () => {
          await lockNavigation(tx, scope, navigation.id);
          const rows = await readItems(tx, scope, navigation.id);
          const item = rows.find((row) => row.id === args.id);
          if (!item) throw ApiError.notFound("Navigation item");
          const problems = new Problems();
          const data: Prisma.NavigationItemUncheckedUpdateInput = {};
          if (input.title != null) data.title = input.title;
          const entryId = await linkChange(tx, scope, item, input, problems);
          if (entryId !== undefined) data.entryId = entryId;
          if (entryId) data.url = null;
          else if (input.url !== undefined) {
            // A url replaces the link: the item then points at that url.
            data.url = input.url;
            if (input.url !== null) data.entryId = null;
          }
          if (input.parent_id != null && !rows.some((row) => row.id === input.parent_id)) {
            problems.add("parent_id", `no item '${input.parent_id}' in this navigation`);
          } else {
            Object.assign(data, placeItem(rows, item, input.parent_id, input.priority, problems));
          }
          problems.throwIfAny();
          await tx.navigationItem.updateMany({ where: { ...scope, id: item.id }, data });
        }),
      );
      return readItem(ctx.db, scope, navigation.id, args.id);
    },
  }),
);
