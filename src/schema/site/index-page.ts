// A collection's index page: served at `index_routing` (and `<index_routing>/page/N`) when both
// `index_routing` and `index_template_handle` are set, `index_per_page` published entries a page.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { countEntries } from "../entries/count.ts";
import { PAGINATE_SYNTAX } from "../templates/liquid.ts";
import { type EntryDrop, entryDrop, siteEntrySelect, siteOrder } from "./entries.ts";
import { perPageOf } from "./entry-list.ts";
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
  const pageRows = (number: number) =>
    ctx.db.entry.findMany({
      where,
      orderBy: siteOrder(collection.orderable),
      skip: (number - 1) * perPage,
      take: perPage,
      select: siteEntrySelect,
    });
  const [total, requested] = await Promise.all([countEntries(ctx, where), pageRows(page)]);
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  // A theme may page the collection itself by fewer than index_per_page (`{% paginate posts.entries by 4
  // %}`, paginate-tag.ts): its pages past the index's own are pages too, each showing the index's last
  // page, as the service shows a page past the end.
  if (page > totalPages && page > (await templatePages(ctx, scope, collection.indexTemplateHandle, total)))
    return null;
  const shown = Math.min(page, totalPages);
  const rows = shown === page ? requested : await pageRows(shown);
  const base = `/${wanted}`.replace(/\/$/, "") || "/";
  const urlOf = (n: number) => (n === 1 ? base : `${base === "/" ? "" : base}/page/${n}`);
  return {
    kind: "index",
    template: collection.indexTemplateHandle,
    layout: collection.layoutHandle ?? "theme",
    collection: { handle: collection.handle, name: collection.name, schema_type: collection.schemaType },
    path: urlOf(page),
    entries: await Promise.all(rows.map((row) => entryDrop(ctx, scope, row))),
    pagination: paginationOf(shown, perPage, total, urlOf),
  };
}

/**
 * The most pages the `{% paginate … by N %}` blocks of the template `handle` make of `total` entries (a
 * size given by a variable counts as the default).
 */
async function templatePages(ctx: Context, scope: AccountScope, handle: string, total: number) {
  const template = await ctx.db.template.findFirst({ where: { ...scope, handle }, select: { html: true } });
  let most = 0;
  for (const [, args = ""] of template?.html.matchAll(/\{%-?\s*paginate\s([^%]*?)-?%\}/g) ?? []) {
    const size = PAGINATE_SYNTAX.exec(args)?.[2];
    most = Math.max(
      most,
      Math.ceil(total / perPageOf(size && /^\d+$/.test(size) ? Number(size) : undefined)),
    );
  }
  return most;
}
