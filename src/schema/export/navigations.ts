// The `navigations` section: each menu with its item tree, in the shape the API's whole-tree replace
// takes (an item's place among its siblings is its order; a link names its entry by handles). Every
// link is written, to unpublished entries too: the document is the site, not its public view.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { type Forest, forestOf, type ItemRow } from "../navigation-items/tree.ts";
import { creationOrder } from "./keyset.ts";
import { chunks } from "./references.ts";
import { yamlEntry } from "./yaml-text.ts";

interface PortableItem {
  title: string;
  url?: string | null;
  collection_handle?: string;
  entry_handle?: string;
  children?: PortableItem[];
}

type Links = Map<string, { handle: string; collection: { handle: string } }>;

export async function navigationsSection(ctx: Context, scope: AccountScope): Promise<string> {
  const navigations = await ctx.db.navigation.findMany({
    where: scope,
    orderBy: creationOrder(),
    select: { id: true, handle: true, title: true },
  });
  const written = [];
  for (const navigation of navigations) {
    const rows: ItemRow[] = await ctx.db.navigationItem.findMany({
      where: { ...scope, navigationId: navigation.id },
      select: {
        id: true,
        parentId: true,
        title: true,
        url: true,
        entryId: true,
        priority: true,
        createdAt: true,
        updatedAt: true,
      },
    });
    const links = await linkedEntries(ctx, scope, rows);
    written.push({
      handle: navigation.handle,
      title: navigation.title,
      items: tree(forestOf(rows), null, links),
    });
  }
  return yamlEntry("navigations", written);
}

function tree(forest: Forest, parentId: string | null, links: Links): PortableItem[] {
  return (forest.get(parentId) ?? []).map((row) => {
    const entry = row.entryId ? links.get(row.entryId) : undefined;
    const children = tree(forest, row.id, links);
    return {
      title: row.title,
      ...(entry
        ? { collection_handle: entry.collection.handle, entry_handle: entry.handle }
        : { url: row.url }),
      ...(children.length > 0 && { children }),
    };
  });
}

async function linkedEntries(ctx: Context, scope: AccountScope, rows: ItemRow[]): Promise<Links> {
  const ids = [...new Set(rows.flatMap((row) => (row.entryId ? [row.entryId] : [])))];
  const links: Links = new Map();
  for (const chunk of chunks(ids)) {
    const entries = await ctx.db.entry.findMany({
      where: { ...scope, id: { in: chunk } },
      select: { id: true, handle: true, collection: { select: { handle: true } } },
    });
    for (const entry of entries) links.set(entry.id, entry);
  }
  return links;
}
