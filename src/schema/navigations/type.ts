// The Navigation as the API returns it (content-api.md, "Navigation and navigation item"). Lists and
// writes answer NavigationRef; only the single-navigation GET answers NavigationWithItemsRef, the same
// fields plus the item tree in `items` (sofa selects every field of a type, so the tree needs its own).
import { builder } from "../builder.ts";
import { embeddedTree } from "../navigation-items/tree.ts";

export const NavigationRef = builder.prismaObject("Navigation", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    items_count: t.relationCount("items"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const NavigationWithItemsRef = builder.prismaObject("Navigation", {
  variant: "NavigationWithItems",
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    items_count: t.relationCount("items"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    items: t.field({
      type: "JSON",
      description:
        "The item tree: top-level items `{id, title, url, priority, created_at, updated_at}`, each with " +
        "`children` when it has children; siblings by priority, then creation. An item linked to an " +
        "entry has `url` null and names the entry as writes do, `collection_handle` + `entry_handle`, so " +
        "the tree can be written back as it was read (navigationItemsReplace).",
      // Every item of the navigation in the same read, each with its entry's handles; the tree is assembled
      // in memory.
      select: {
        items: { include: { entry: { select: { handle: true, collection: { select: { handle: true } } } } } },
      },
      resolve: (navigation) => embeddedTree(navigation.items),
    }),
  }),
});
