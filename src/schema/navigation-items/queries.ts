// GET /navigations/:navigation_id/items (top-level items with their subtrees in `children`, or with
// `all=true` every item in outline order, flat; 20 a page either way) and GET .../items/:id.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findNavigation } from "../navigations/find.ts";
import { type ListShape, listPage, PaginationRef, pageSchema } from "../pagination.ts";
import { itemIdArg } from "./inputs.ts";
import { readItem, readItems, readLinkedEntryHandles } from "./read.ts";
import { forestOf, type ItemJson, type ItemRow, listedItem, outline, subtreeIds } from "./tree.ts";

const NavigationItemList = builder.objectRef<ListShape<ItemJson>>("NavigationItemList").implement({
  fields: (t) => ({
    data: t.field({
      type: ["JSON"],
      description:
        "Items `{id, title, url, collection_handle?, entry_handle?, priority, parent_id, entity?, " +
        "created_at, updated_at, children?}`; `collection_handle`, `entry_handle` and `entity` " +
        "`{type, id, handle, title, url}` only on items linked to an entry, `children` only on items that " +
        "have children (and never in the flat list).",
      resolve: (list) => list.data,
    }),
    pagination: t.field({ type: PaginationRef, resolve: (list) => list.pagination }),
  }),
});

builder.queryField("navigationItems", (t) =>
  t.field({
    type: NavigationItemList,
    description: "A navigation's items: top-level items with nested children, or every item flat (`all`).",
    args: {
      account_id: accountArg(t.arg),
      navigation_id: idArg(t.arg, "navigation"),
      all: t.arg.boolean({ description: "`true`: a flat list of every item, in outline order." }),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      const rows = await readItems(ctx.db, scope, navigation.id);
      const forest = forestOf(rows);
      const flat = args.all === true;
      const listed = flat ? outline(forest) : (forest.get(null) ?? []);
      return listPage(args.page, Promise.resolve(listed.length), async ({ skip, take }) => {
        const page = listed.slice(skip, skip + take);
        let shown: ItemRow[] = page;
        if (!flat) {
          const ids = new Set(page.flatMap((row) => [...subtreeIds(forest, row.id)]));
          shown = rows.filter((row) => ids.has(row.id));
        }
        const entries = await readLinkedEntryHandles(ctx.db, scope, shown);
        return page.map((row) => listedItem(row, { entries, ...(!flat && { forest }) }));
      });
    },
  }),
);

builder.queryField("navigationItem", (t) =>
  t.field({
    type: "JSON",
    description: "One item with `parent_id`, `entity` when linked and its subtree in `children`.",
    args: { account_id: accountArg(t.arg), navigation_id: idArg(t.arg, "navigation"), id: itemIdArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      return readItem(ctx.db, scope, navigation.id, args.id);
    },
  }),
);
