// `{% paginate post.entries by 5 %}…{% endpaginate %}`, as in Shopify themes: inside the block the
// list expression holds only the current page's items (the request's `?page=N`) and `paginate` describes
// the pages. When the list is `<collection handle>.entries` or `collections.<handle>.entries`, the page
// comes from the schema (the collection's published entries in site order); any other array is sliced.
// `{{ paginate | default_pagination }}` prints Shopify's page links.
import {
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  Value,
} from "liquidjs";
import { perPageOf } from "../schema/site/entry-list.ts";
import { type Pagination, paginationOf, queryPageUrl } from "../schema/site/pagination.ts";
import { PAGINATE_SYNTAX, parseBlockBody } from "../schema/templates/liquid.ts";
import { escapeHtml } from "./html.ts";
import { renderScope } from "./render-scope.ts";
import type { EntryList } from "./site-data.ts";

type Context = Parameters<Tag["render"]>[0];

interface PagePart {
  title: string;
  url: string | null;
  is_link: boolean;
}

/** Shopify's `paginate` object, plus the CMS's own pagination fields. */
export interface PaginateDrop extends Pagination {
  current_offset: number;
  items: number;
  page_size: number;
  pages: number;
  previous: PagePart | null;
  next: PagePart | null;
  parts: PagePart[];
}

const variablePath = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

export class PaginateTag extends Tag {
  private readonly body: Template[];
  private readonly list: Value;
  private readonly size: Value;
  /** The list's variable path, rebound to the page inside the block. */
  private readonly segments: string[] | null;
  private readonly collection: string | null;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const [, list = "", size = ""] = PAGINATE_SYNTAX.exec(token.args) ?? [];
    if (!list) throw new Error(`paginate needs "<list> by <page size>", got "${token.args}"`);
    this.list = new Value(list, liquid);
    this.size = new Value(size, liquid);
    this.segments = variablePath.test(list) ? list.split(".") : null;
    this.collection = collectionOf(this.segments);
    this.body = parseBlockBody(token, remainTokens, parser, "paginate");
  }

  *render(ctx: Context, emitter: Parameters<Tag["render"]>[1]): Generator<unknown, void, unknown> {
    const scope = renderScope();
    const size = yield this.size.value(ctx);
    const perPage = perPageOf(typeof size === "number" ? size : Number.parseInt(String(size), 10));
    const page = scope.page;
    const list = this.collection
      ? ((yield scope.entries({
          collection: this.collection,
          per_page: perPage,
          page,
          path: scope.path,
        })) as EntryList | null)
      : null;
    let items: unknown[];
    let total: number;
    if (list) {
      items = list.entries;
      total = list.total;
    } else {
      const all = yield this.list.value(ctx);
      const array = Array.isArray(all) ? all : [];
      total = array.length;
      items = array.slice((page - 1) * perPage, page * perPage);
    }
    const rebound = this.segments ? yield* rebind(ctx, this.segments, items) : {};
    ctx.push({ ...rebound, paginate: paginateDrop(page, perPage, total, scope.path) });
    try {
      yield this.liquid.renderer.renderTemplates(this.body, ctx, emitter);
    } finally {
      ctx.pop();
    }
  }
}

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

function paginateDrop(page: number, perPage: number, total: number, path: string): PaginateDrop {
  const urlOf = queryPageUrl(path);
  const pagination = paginationOf(page, perPage, total, urlOf);
  const link = (title: string, to: number | null) => (to ? { title, url: urlOf(to), is_link: true } : null);
  return {
    ...pagination,
    current_offset: (page - 1) * perPage,
    items: total,
    page_size: perPage,
    pages: pagination.total_pages,
    previous: link("« Previous", pagination.previous_page),
    next: link("Next »", pagination.next_page),
    parts: partsOf(page, pagination.total_pages, urlOf),
  };
}

/** Every page near the current one, the first and the last; "…" (not a link) over the gaps. */
function partsOf(page: number, pages: number, urlOf: (page: number) => string): PagePart[] {
  const parts: PagePart[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= 2) {
      parts.push({ title: String(n), url: n === page ? null : urlOf(n), is_link: n !== page });
    } else if (parts.at(-1)?.title !== "…") {
      parts.push({ title: "…", url: null, is_link: false });
    }
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
    else if (part.title === "…") out.push('<span class="deco">&hellip;</span>');
    else out.push(`<span class="page current">${escapeHtml(part.title)}</span>`);
  }
  if (paginate.next) out.push(link(paginate.next, "next", "Next &raquo;"));
  return out.join(" ");
}
