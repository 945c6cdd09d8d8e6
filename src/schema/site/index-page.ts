// A collection's index page: served at `index_routing` (and `<index_routing>/page/N`) when both
// `index_routing` and `index_template_handle` are set, `index_per_page` published entries a page.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { type EntryDrop, entryDrop, siteEntrySelect, siteOrder } from "./entries.ts";
import { type Pagination, paginationOf } from "./pagination.ts";
import { visible } from "./scope.ts";

export interface IndexPage {
  kind: "index";
  template: string;
  layout: string;
  collection: { handle: string; name: string; schema_type: string | null };
  path: string;
  entries: EntryDrop[];
  pagination: Pagination;
}

const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, "");

export async function indexAt(
  ctx: Context,
  scope: AccountScope,
  path: string,
  page: number,
): Promise<IndexPage | null> {
  const wanted = trimSlashes(path);
  const candidates = await ctx.db.collection.findMany({
    where: { ...scope, indexRouting: { not: null }, indexTemplateHandle: { not: null } },
    select: {
      id: true,
      handle: true,
      name: true,
      indexRouting: true,
      indexTemplateHandle: true,
      indexPerPage: true,
      orderable: true,
      schemaType: true,
      layoutHandle: true,
    },
  });
  const collection = candidates.find((candidate) => trimSlashes(candidate.indexRouting ?? "") === wanted);
  if (!collection?.indexTemplateHandle) return null;
  const where = { ...scope, ...(await visible(ctx)), collectionId: collection.id };
  const perPage = collection.indexPerPage;
  const [total, rows] = await Promise.all([
    ctx.db.entry.count({ where }),
    ctx.db.entry.findMany({
      where,
      orderBy: siteOrder(collection.orderable),
      skip: (page - 1) * perPage,
      take: perPage,
      select: siteEntrySelect,
    }),
  ]);
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (page > totalPages) return null;
  const base = `/${wanted}`.replace(/\/$/, "") || "/";
  const urlOf = (n: number) => (n === 1 ? base : `${base === "/" ? "" : base}/page/${n}`);
  return {
    kind: "index",
    template: collection.indexTemplateHandle,
    layout: collection.layoutHandle ?? "theme",
    collection: { handle: collection.handle, name: collection.name, schema_type: collection.schemaType },
    path: urlOf(page),
    entries: await Promise.all(rows.map((row) => entryDrop(ctx, scope, row))),
    pagination: paginationOf(page, perPage, total, urlOf),
  };
}
