// What keeps a theme from showing the account's content, found in the records (themeValidate): templates
// named but missing, entries whose page path cannot be made (an orphan: the parent entry its routing
// needs is gone), entries without the date their routing needs, index pages half configured, and pages
// sharing one path (the site can show only one of them). Each check names at most CHECK_LIMIT entries.
import type { AccountScope } from "../access.ts";
import { dateTokens, fieldTokens, usesDate } from "../collections/routing.ts";
import type { Context } from "../context.ts";

export const CHECK_LIMIT = 50;

export type ThemeCheck =
  | "missing_template"
  | "orphaned_entry"
  | "missing_published_at"
  | "missing_index_config"
  | "duplicate_content_path";

export interface ThemeIssue {
  check: ThemeCheck;
  message: string;
  collection_handle?: string;
  entry_handle?: string;
  template_handle?: string;
  content_path?: string;
}

interface CollectionRow {
  id: string;
  handle: string;
  routing: string;
  rootRouting: boolean;
  templateHandle: string | null;
  layoutHandle: string | null;
  indexRouting: string | null;
  indexTemplateHandle: string | null;
}

const byHandle = [{ collection: { handle: "asc" as const } }, { handle: "asc" as const }];
const entryNames = { handle: true, collection: { select: { handle: true } } } as const;
const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, "");
/** The root collection's `index` entry is served at `/`, whatever its routing needs. */
const isRootIndex = (collection: CollectionRow, handle: string) =>
  collection.rootRouting && handle === "index";

export async function themeIssues(ctx: Context, scope: AccountScope): Promise<ThemeIssue[]> {
  const [templates, collections] = await Promise.all([
    ctx.db.template.findMany({ where: scope, select: { handle: true } }),
    ctx.db.collection.findMany({
      where: scope,
      orderBy: { handle: "asc" },
      select: {
        id: true,
        handle: true,
        routing: true,
        rootRouting: true,
        templateHandle: true,
        layoutHandle: true,
        indexRouting: true,
        indexTemplateHandle: true,
      },
    }),
  ]);
  const existing = new Set(templates.map((template) => template.handle));
  const checks = [
    missingTemplates(ctx, scope, collections, existing),
    orphanedEntries(ctx, scope, collections),
    missingDates(ctx, scope, collections),
    indexConfigs(collections),
    duplicatePaths(ctx, scope, collections),
  ];
  return (await Promise.all(checks)).flat();
}

async function missingTemplates(
  ctx: Context,
  scope: AccountScope,
  collections: readonly CollectionRow[],
  existing: ReadonlySet<string>,
): Promise<ThemeIssue[]> {
  const issues: ThemeIssue[] = [];
  const missing = (handle: string | null): handle is string => handle !== null && !existing.has(handle);
  for (const collection of collections) {
    const named = {
      template_handle: collection.templateHandle,
      layout_handle: collection.layoutHandle,
      index_template_handle: collection.indexTemplateHandle,
    };
    for (const [field, handle] of Object.entries(named))
      if (missing(handle))
        issues.push({
          check: "missing_template",
          message: `collection '${collection.handle}' names ${field} '${handle}', which does not exist`,
          collection_handle: collection.handle,
          template_handle: handle,
        });
  }
  const absent = { not: null, notIn: [...existing] };
  const entries = await ctx.db.entry.findMany({
    where: { ...scope, OR: [{ templateHandle: absent }, { layoutHandle: absent }] },
    select: { ...entryNames, templateHandle: true, layoutHandle: true },
    orderBy: byHandle,
    take: CHECK_LIMIT,
  });
  for (const entry of entries)
    for (const [field, handle] of [
      ["template_handle", entry.templateHandle],
      ["layout_handle", entry.layoutHandle],
    ] as const)
      if (missing(handle))
        issues.push({
          check: "missing_template",
          message: `entry '${entry.handle}' of collection '${entry.collection.handle}' names ${field} '${handle}', which does not exist`,
          collection_handle: entry.collection.handle,
          entry_handle: entry.handle,
          template_handle: handle,
        });
  if (existing.has("index")) return issues;
  // Pages that name no template, nor their collection, render the template `index`.
  for (const collection of collections) {
    if (collection.templateHandle !== null) continue;
    const count = await ctx.db.entry.count({
      where: { ...scope, collectionId: collection.id, templateHandle: null },
    });
    if (count > 0)
      issues.push({
        check: "missing_template",
        message: `${count} entries of collection '${collection.handle}' name no template, nor does the collection: their pages need the template 'index', which does not exist`,
        collection_handle: collection.handle,
        template_handle: "index",
      });
  }
  return issues;
}

async function orphanedEntries(
  ctx: Context,
  scope: AccountScope,
  collections: readonly CollectionRow[],
): Promise<ThemeIssue[]> {
  const issues: ThemeIssue[] = [];
  for (const collection of collections)
    for (const field of fieldTokens(collection.routing)) {
      const entries = await ctx.db.entry.findMany({
        where: {
          ...scope,
          collectionId: collection.id,
          routingOverride: null,
          references: { none: { field } },
        },
        select: { handle: true },
        orderBy: { handle: "asc" },
        take: CHECK_LIMIT,
      });
      for (const { handle } of entries)
        if (!isRootIndex(collection, handle))
          issues.push({
            check: "orphaned_entry",
            message: `entry '${handle}' of collection '${collection.handle}' has no '${field}' entry, which the routing '${collection.routing}' needs: its page path cannot be made`,
            collection_handle: collection.handle,
            entry_handle: handle,
          });
    }
  return issues;
}

async function missingDates(
  ctx: Context,
  scope: AccountScope,
  collections: readonly CollectionRow[],
): Promise<ThemeIssue[]> {
  const dated = collections.filter((collection) => usesDate(collection.routing));
  if (dated.length === 0) return [];
  const entries = await ctx.db.entry.findMany({
    where: {
      ...scope,
      collectionId: { in: dated.map((collection) => collection.id) },
      publishedAt: null,
      routingOverride: null,
    },
    select: { handle: true, collectionId: true },
    orderBy: byHandle,
    take: CHECK_LIMIT,
  });
  const byId = new Map(dated.map((collection) => [collection.id, collection]));
  return entries.flatMap((entry) => {
    const collection = byId.get(entry.collectionId);
    if (!collection || isRootIndex(collection, entry.handle)) return [];
    const tokens = dateTokens.filter((token) => collection.routing.includes(`:${token}`));
    return {
      check: "missing_published_at",
      message: `entry '${entry.handle}' of collection '${collection.handle}' has no published_at, which the routing '${collection.routing}' needs for :${tokens.join(", :")} (its creation date stands in)`,
      collection_handle: collection.handle,
      entry_handle: entry.handle,
    };
  });
}

function indexConfigs(collections: readonly CollectionRow[]): ThemeIssue[] {
  const issues: ThemeIssue[] = [];
  for (const collection of collections) {
    const [has, lacks] =
      collection.indexRouting === null
        ? ["index_template_handle", "index_routing"]
        : ["index_routing", "index_template_handle"];
    if ((collection.indexRouting === null) === (collection.indexTemplateHandle === null)) continue;
    issues.push({
      check: "missing_index_config",
      message: `collection '${collection.handle}' has ${has} but no ${lacks}: its index page is not served`,
      collection_handle: collection.handle,
    });
  }
  return issues;
}

async function duplicatePaths(
  ctx: Context,
  scope: AccountScope,
  collections: readonly CollectionRow[],
): Promise<ThemeIssue[]> {
  const indexPaths = new Map<string, string[]>();
  for (const collection of collections)
    if (collection.indexRouting !== null && collection.indexTemplateHandle !== null) {
      const path = `/${trimSlashes(collection.indexRouting)}`;
      indexPaths.set(path, [
        ...(indexPaths.get(path) ?? []),
        `the index page of collection '${collection.handle}'`,
      ]);
    }
  const shared = await ctx.db.entry.groupBy({
    by: ["contentPath"],
    where: scope,
    having: { contentPath: { _count: { gt: 1 } } },
    orderBy: { contentPath: "asc" },
    take: CHECK_LIMIT,
  });
  const paths = [...new Set([...shared.map((group) => group.contentPath), ...indexPaths.keys()])];
  const entries = await ctx.db.entry.findMany({
    where: { ...scope, contentPath: { in: paths } },
    select: { ...entryNames, contentPath: true },
    orderBy: byHandle,
    take: CHECK_LIMIT * 10,
  });
  const pages = new Map(indexPaths);
  for (const entry of entries)
    pages.set(entry.contentPath, [
      ...(pages.get(entry.contentPath) ?? []),
      `entry '${entry.handle}' of collection '${entry.collection.handle}'`,
    ]);
  return [...pages]
    .filter(([, names]) => names.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, names]) => ({
      check: "duplicate_content_path",
      message: `${names.join(", ")} share the path ${path}: the site shows only one of them`,
      content_path: path,
    }));
}
