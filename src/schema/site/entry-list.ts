// One page of a collection's published entries for the `query` and `paginate` tags (decisions.md:
// `{% query collection: "posts", order_by: "position", order_dir: "asc", per_page: 10 %}`), at most 100
// a page. Without order_by (or with one it does not know) the list is in site order.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { contentCollection } from "../content/collection.ts";
import { key, orderBy } from "../content/order.ts";
import { filterWhere } from "../content/where.ts";
import type { Context } from "../context.ts";
import { countEntries } from "../entries/count.ts";
import { ApiError } from "../errors.ts";
import { type EntryDrop, entryDrop, siteEntrySelect, siteOrder } from "./entries.ts";
import { type Pagination, paginationOf, queryPageUrl } from "./pagination.ts";
import { perPageOf } from "./per-page.ts";
import { contentFilters, type QueryCondition } from "./query-filter.ts";
import { visible } from "./scope.ts";

export { DEFAULT_PER_PAGE, MAX_PER_PAGE, perPageOf } from "./per-page.ts";

export interface EntryListArgs {
  collection: string;
  order_by?: string | null;
  order_dir?: string | null;
  per_page?: number | null;
  page?: number | null;
  /** The page's path, base of the pagination URLs (`<path>?page=N`). */
  path?: string | null;
  /** The query tag's `filter: {fields: [...]}` conditions (query-filter.ts). */
  filter?: readonly QueryCondition[] | null;
}

export interface EntryList {
  entries: EntryDrop[];
  total: number;
  pagination: Pagination;
}

/** The system fields a template may order by. */
const orderNames = new Set(["position", "title", "handle", "published_at", "created_at", "updated_at"]);

function orderOf(args: EntryListArgs, orderable: string): Prisma.EntryOrderByWithRelationInput[] {
  const name = args.order_by ?? "";
  if (!orderNames.has(name)) return siteOrder(orderable);
  const direction = String(args.order_dir ?? "").toLowerCase() === "desc" ? "desc" : "asc";
  return orderBy([key(name, direction), key("id", direction)]);
}

/** The page, or null when the account has no collection `args.collection`. */
export async function entryList(
  ctx: Context,
  scope: AccountScope,
  args: EntryListArgs,
): Promise<EntryList | null> {
  const collection = await ctx.db.collection.findFirst({
    where: { ...scope, handle: args.collection },
    select: { id: true, orderable: true },
  });
  if (!collection) return null;
  const perPage = perPageOf(args.per_page);
  const page = Math.max(1, Math.min(Math.floor(args.page ?? 1) || 1, 1_000_000));
  const conditions = await conditionsOf(ctx, scope, args);
  // A condition the collection cannot answer (a field it lacks, a value of the wrong type) matches nothing.
  if (!conditions)
    return {
      entries: [],
      total: 0,
      pagination: paginationOf(page, perPage, 0, queryPageUrl(args.path || "/")),
    };
  const shown = await visible(ctx);
  const where = { ...scope, ...shown, collectionId: collection.id, AND: conditions };
  const [total, rows] = await Promise.all([
    countEntries(ctx, where),
    ctx.db.entry.findMany({
      where,
      orderBy: orderOf(args, collection.orderable),
      skip: (page - 1) * perPage,
      take: perPage,
      select: siteEntrySelect,
    }),
  ]);
  return {
    entries: await Promise.all(rows.map((row) => entryDrop(ctx, scope, row))),
    total,
    pagination: paginationOf(page, perPage, total, queryPageUrl(args.path || "/")),
  };
}

async function conditionsOf(
  ctx: Context,
  scope: AccountScope,
  args: EntryListArgs,
): Promise<Prisma.EntryWhereInput[] | null> {
  if (!args.filter?.length) return [];
  const { id, fields } = await contentCollection(ctx, scope, args.collection);
  try {
    return await filterWhere(ctx, { collectionId: id, fields }, contentFilters(args.filter, fields));
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return null;
    throw error;
  }
}
