// `{% query collection: "posts", order_by: "position", order_dir: "asc", per_page: 10 %}…{% endquery %}`
// (decisions.md): inside, `query.entries` is a page of the collection's published entries (from the
// schema, per_page at most 100), `query.total` their count and `query.pagination` the index pages'
// pagination object. The page is the request's `?page=N` unless the tag names a `page:`.
import {
  Hash,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
} from "liquidjs";
import { paginationOf, queryPageUrl } from "../schema/site/pagination.ts";
import { parseBlockBody } from "../schema/templates/liquid.ts";
import { renderScope } from "./render-scope.ts";
import type { EntryList } from "./site-data.ts";

const text = (value: unknown) => (typeof value === "string" ? value : null);
const number = (value: unknown) => {
  const parsed = typeof value === "number" ? value : Number.parseInt(String(value ?? ""), 10);
  return Number.isFinite(parsed) ? parsed : null;
};

export class QueryTag extends Tag {
  private readonly body: Template[];
  private readonly options: Hash;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    this.options = new Hash(token.args);
    this.body = parseBlockBody(token, remainTokens, parser, "query");
  }

  *render(
    ctx: Parameters<Tag["render"]>[0],
    emitter: Parameters<Tag["render"]>[1],
  ): Generator<unknown, void, unknown> {
    const options = (yield this.options.render(ctx)) as Record<string, unknown>;
    const scope = renderScope();
    const list = (yield scope.entries({
      collection: String(options.collection ?? ""),
      order_by: text(options.order_by),
      order_dir: text(options.order_dir),
      per_page: number(options.per_page),
      page: number(options.page) ?? scope.page,
      path: scope.path,
    })) as EntryList | null;
    // An unknown collection is an empty list, as on the hosted service, not a failed page.
    const query = list ?? {
      entries: [],
      total: 0,
      pagination: paginationOf(1, 1, 0, queryPageUrl(scope.path)),
    };
    ctx.push({ query });
    try {
      yield this.liquid.renderer.renderTemplates(this.body, ctx, emitter);
    } finally {
      ctx.pop();
    }
  }
}
