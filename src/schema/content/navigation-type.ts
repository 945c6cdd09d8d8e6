// Navigations as typed trees for frontend apps: items nest in `children` (always a list), siblings by
// priority then creation; a linked item's `url` is its entry's current content_path (null, with no
// `entry`, while that entry is unpublished or deleted). All items of the navigations asked for are read in
// one query and their linked entries in one more.
import type { AccountScope } from "../access.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { readNavigationForests } from "../navigation-items/read.ts";
import { type Forest, itemUrl, type LinkedEntry } from "../navigation-items/tree.ts";
import { visible } from "../site/scope.ts";

export interface NavigationNode {
  id: string;
  title: string;
  url: string | null;
  priority: number;
  entry: LinkedEntry | null;
  children: NavigationNode[];
}

export interface NavigationTree {
  id: string;
  handle: string;
  title: string;
  items: NavigationNode[];
}

const LinkedEntryRef = builder.objectRef<LinkedEntry>("ContentNavigationEntry").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    content_path: t.exposeString("contentPath"),
  }),
});

const NodeRef = builder.objectRef<NavigationNode>("ContentNavigationItem");
NodeRef.implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    url: t.exposeString("url", {
      nullable: true,
      description:
        "The link; for linked items, the entry's path (null while the entry is unpublished or deleted).",
    }),
    priority: t.exposeInt("priority"),
    entry: t.field({ type: LinkedEntryRef, nullable: true, resolve: (node) => node.entry }),
    children: t.field({ type: [NodeRef], resolve: (node) => node.children }),
  }),
});

export const NavigationTreeRef = builder.objectRef<NavigationTree>("ContentNavigation").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    items: t.field({ type: [NodeRef], resolve: (tree) => tree.items }),
  }),
});

export async function navigationTrees(
  ctx: Context,
  scope: AccountScope,
  navigations: { id: string; handle: string; title: string }[],
): Promise<NavigationTree[]> {
  if (navigations.length === 0) return [];
  const { forests, linked } = await readNavigationForests(
    ctx.db,
    scope,
    await visible(ctx),
    navigations.map((navigation) => navigation.id),
  );
  return navigations.map((navigation) => ({
    ...navigation,
    items: nodes(forests.get(navigation.id), null, linked),
  }));
}

function nodes(
  forest: Forest | undefined,
  parentId: string | null,
  linked: Map<string, LinkedEntry>,
): NavigationNode[] {
  return (forest?.get(parentId) ?? []).map((row) => ({
    id: row.id,
    title: row.title,
    url: itemUrl(row, linked),
    priority: row.priority,
    entry: row.entryId ? (linked.get(row.entryId) ?? null) : null,
    children: nodes(forest, row.id, linked),
  }));
}
