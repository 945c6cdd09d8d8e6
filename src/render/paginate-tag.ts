// `{% paginate posts.entries by 10 %}{% for post in paginate.items %}…{% endpaginate %}`, as on the hosted
// service: `paginate.items` (also `paginate.entries`) is the current page's entries (the page of the
// request's `?page=N` or `/page/N`), with the service's fields around it; page URLs are `<path>/page/N`,
// page 1 being the path itself. When the list is `<collection handle>.entries` or
// `collections.<handle>.entries`, the page comes from the schema (the collection's published entries in
// site order); any other array is sliced. As in Shopify themes, the list expression itself also holds
// only the page inside the block, and `{{ paginate | default_pagination }}` (or `{{ paginate.links }}`)
// prints the page links. Without `by N`, 20 a page; `window_size: N` sets how many pages around the
// current one are links (3, as on the service).
import {
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  Value,
} from "liquidjs";
import { type Pagination, paginationOf, pathPageUrl } from "../schema/site/pagination.ts";
import { DEFAULT_PER_PAGE, perPageOf } from "../schema/site/per-page.ts";
import { PAGINATE_SYNTAX, parseBlockBody } from "../schema/templates/liquid.ts";
import { escapeHtml } from "./html.ts";
import { renderScope } from "./render-scope.ts";
import type { EntryList } from "./site-data.ts";

type Context = Parameters<Tag["render"]>[0];

interface PagePart {
  title: string | number;
  url?: string;
  is_link: boolean;
}

/** The service's `paginate` object, plus the CMS's previous_page/next_page and `links`. */
export interface PaginateDrop extends Pagination {
  items: unknown[];
  entries: unknown[];
  page_size: number;
  current_offset: number;
  total_count: number;
  pages: number;
  previous?: PagePart;
  next?: PagePart;
  parts: PagePart[];
  links: string;
}

const HELLIP = "&hellip;";

const variablePath = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

export class PaginateTag extends Tag {
  private readonly body: Template[];
  private readonly list: Value;
  private readonly size: Value | null;
  private readonly window: Value | null;
  /** The list's variable path, rebound to the page inside the block. */
  private readonly segments: string[] | null;
  private readonly collection: string | null;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const [, list = "", size, window] = PAGINATE_SYNTAX.exec(token.args) ?? [];
    if (!list) throw new Error(`paginate needs "<list> [by <page size>]", got "${token.args}"`);
    this.list = new Value(list, liquid);
    this.size = size ? new Value(size, liquid) : null;
    this.window = window ? new Value(window, liquid) : null;
    this.segments = variablePath.test(list) ? list.split(".") : null;
    this.collection = collectionOf(this.segments);
    this.body = parseBlockBody(token, remainTokens, parser, "paginate");
  }

  *render(ctx: Context, emitter: Parameters<Tag["render"]>[1]): Generator<unknown, void, unknown> {
    const scope = renderScope();
    const perPage = perPageOf(this.size ? integer(yield this.size.value(ctx)) : DEFAULT_PER_PAGE);
    const window = Math.max(1, (this.window ? integer(yield this.window.value(ctx)) : null) ?? 3);
    let page = scope.page;
    let items: unknown[];
    let total: number;
    const list = this.collection ? yield* this.collectionPage(page, perPage) : null;
    if (list) {
      ({ page, items, total } = list);
    } else {
      const all = yield this.list.value(ctx);
      const array = Array.isArray(all) ? all : [];
      total = array.length;
      // Past the last page, the last page (as on the service).
      page = Math.min(page, Math.max(1, Math.ceil(total / perPage)));
      items = array.slice((page - 1) * perPage, page * perPage);
    }
    const rebound = this.segments ? yield* rebind(ctx, this.segments, items) : {};
    ctx.push({ ...rebound, paginate: paginateDrop(page, perPage, total, items, scope.path, window) });
    try {
      yield this.liquid.renderer.renderTemplates(this.body, ctx, emitter);
    } finally {
      ctx.pop();
    }
  }

  /** The page of the collection's entries from the schema (the last one past the end), or null. */
  private *collectionPage(
    page: number,
    perPage: number,
  ): Generator<unknown, { page: number; items: unknown[]; total: number } | null, unknown> {
    const scope = renderScope();
    const read = (n: number) =>
      scope.entries({
        collection: this.collection as string,
        per_page: perPage,
        page: n,
        path: scope.path,
      }) as Promise<EntryList | null>;
    let list = (yield read(page)) as EntryList | null;
    if (!list) return null;
    const last = list.pagination.total_pages;
    if (page > last) {
      page = last;
      list = (yield read(page)) as EntryList;
    }
    return { page, items: list.entries, total: list.total };
  }
}

const integer = (value: unknown) => {
  const parsed = typeof value === "number" ? value : Number.parseInt(String(value), 10);
  return Number.isFinite(parsed) ? parsed : null;
};

/** `post.entries` and `collections.post.entries` name the collection `post`. */
function collectionOf(segments: string[] | null): string | null {
  if (segments?.length === 2 && segments[1] === "entries") return segments[0] ?? null;
  if (segments?.length === 3 && segments[0] === "collections" && segments[2] === "entries")
    return segments[1] ?? null;
  return null;
}

/** A scope where `a.b.c` is `items` and everything else under `a` stays as it was. */
function* rebind(ctx: Context, segments: string[], items: unknown[]): Generator<unknown, object, unknown> {
  let value: unknown = items;
  for (let depth = segments.length - 1; depth >= 1; depth--) {
    const parent = yield ctx._get(segments.slice(0, depth));
    const own = parent && typeof parent === "object" && !Array.isArray(parent) ? parent : {};
    value = { ...own, [segments[depth] as string]: value };
  }
  return { [segments[0] as string]: value };
}

function paginateDrop(
  page: number,
  perPage: number,
  total: number,
  items: unknown[],
  path: string,
  window: number,
): PaginateDrop {
  const urlOf = pathPageUrl(path);
  const pagination = paginationOf(page, perPage, total, urlOf);
  const pages = pagination.total_pages;
  const drop: PaginateDrop = {
    ...pagination,
    items,
    entries: items,
    page_size: perPage,
    current_offset: (page - 1) * perPage,
    total_count: total,
    pages,
    parts: partsOf(page, pages, urlOf, window),
    links: "",
  };
  if (page > 1) drop.previous = { title: "&laquo; Previous", url: urlOf(page - 1), is_link: true };
  if (page < pages) drop.next = { title: "Next &raquo;", url: urlOf(page + 1), is_link: true };
  drop.links = defaultPagination(drop);
  return drop;
}

/**
 * The service's page links: none for a single page; else the current page (not a link), the first and
 * the last, the pages less than `window` away, and one `&hellip;` (not a link) over each gap.
 */
function partsOf(page: number, pages: number, urlOf: (page: number) => string, window: number): PagePart[] {
  const parts: PagePart[] = [];
  if (pages <= 1) return parts;
  for (let n = 1; n <= pages; n++) {
    const near = Math.abs(n - page) < window;
    if (n === page) parts.push({ title: n, is_link: false });
    else if (n === 1 || n === pages || near) parts.push({ title: n, url: urlOf(n), is_link: true });
    else if (parts.at(-1)?.title !== HELLIP) parts.push({ title: HELLIP, is_link: false });
  }
  return parts;
}

/** `{{ paginate | default_pagination }}`: Shopify's markup of the page links. */
export function defaultPagination(value: unknown): string {
  if (!value || typeof value !== "object" || !Array.isArray((value as PaginateDrop).parts)) return "";
  const paginate = value as PaginateDrop;
  const link = (part: PagePart, className: string, label: string) =>
    `<span class="${className}"><a href="${escapeHtml(part.url)}">${label}</a></span>`;
  const out: string[] = [];
  if (paginate.previous) out.push(link(paginate.previous, "prev", "&laquo; Previous"));
  for (const part of paginate.parts) {
    if (part.is_link) out.push(link(part, "page", escapeHtml(part.title)));
    else if (part.title === HELLIP) out.push('<span class="deco">&hellip;</span>');
    else out.push(`<span class="page current">${escapeHtml(part.title)}</span>`);
  }
  if (paginate.next) out.push(link(paginate.next, "next", "Next &raquo;"));
  return out.join(" ");
}
