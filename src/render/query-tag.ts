// `{% query collection: "posts", order_by: "position", order_dir: "asc", per_page: 10 %}…{% endquery %}`
// as on the hosted service: inside, `query.entries` (also `query.results`) is a page of the collection's
// entries (from the schema, per_page at most 100), `query.total` their count and `query.pagination` the
// pagination object. Defaults as on the service: per_page 25, order_by published_at, order_dir desc,
// published entries only: `published: false`, which lists drafts on the service, is read and has no
// effect (decisions.md: the public site shows published entries only). `filter: {fields: [{path: "category",
// op: "eq", value: "news"}]}` keeps entries matching every condition; a value is a string, a number or
// a variable (`value: posts.author`). The page is the request's `?page=N` or `/page/N` unless the tag
// names a `page:`.
import {
  Hash,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  Value,
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

/** `filter: {…}`, balanced braces: the service's syntax, which is no Liquid expression. */
const FILTER_START = /\bfilter:\s*\{/;
const CONDITION = /\{\s*path:\s*['"]([^'"]+)['"]\s*,\s*op:\s*['"]([^'"]+)['"]\s*,\s*value:\s*([^}]+?)\s*\}/g;

/** The tag's arguments without `filter: {…}`, and that filter's conditions (values still expressions). */
function splitFilter(args: string, liquid: Liquid): { rest: string; conditions: [string, string, Value][] } {
  const start = FILTER_START.exec(args);
  if (!start) return { rest: args, conditions: [] };
  const open = start.index + start[0].length - 1;
  let depth = 0;
  let end = args.length - 1;
  for (let at = open; at < args.length; at++) {
    if (args[at] === "{") depth++;
    else if (args[at] === "}" && --depth === 0) {
      end = at;
      break;
    }
  }
  const markup = args.slice(open, end + 1);
  const conditions = [...markup.matchAll(CONDITION)].map(
    ([, path = "", op = "", value = ""]) => [path, op, new Value(value, liquid)] as [string, string, Value],
  );
  const rest = `${args.slice(0, start.index)} ${args.slice(end + 1)}`
    .replace(/,\s*,/g, ",")
    .replace(/^\s*,|,\s*$/g, "");
  return { rest, conditions };
}

export class QueryTag extends Tag {
  private readonly body: Template[];
  private readonly options: Hash;
  private readonly conditions: [string, string, Value][];

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const { rest, conditions } = splitFilter(token.args, liquid);
    this.options = new Hash(rest);
    this.conditions = conditions;
    this.body = parseBlockBody(token, remainTokens, parser, "query");
  }

  *render(
    ctx: Parameters<Tag["render"]>[0],
    emitter: Parameters<Tag["render"]>[1],
  ): Generator<unknown, void, unknown> {
    const options = (yield this.options.render(ctx)) as Record<string, unknown>;
    const scope = renderScope();
    const filter = [];
    for (const [path, op, value] of this.conditions) filter.push({ path, op, value: yield value.value(ctx) });
    const list = (yield scope.entries({
      collection: String(options.collection ?? ""),
      order_by: text(options.order_by) ?? "published_at",
      order_dir: text(options.order_dir) ?? "desc",
      per_page: number(options.per_page) ?? 25,
      page: number(options.page) ?? scope.page,
      path: scope.path,
      ...(filter.length > 0 && { filter }),
    })) as EntryList | null;
    // An unknown collection is an empty list, as on the hosted service, not a failed page.
    const query = list ?? {
      entries: [],
      total: 0,
      pagination: paginationOf(1, 1, 0, queryPageUrl(scope.path)),
    };
    // The service's names too: `query.results`, `query.pagination.total_count`.
    const pagination = { ...query.pagination, total_count: query.total };
    ctx.push({ query: { ...query, results: query.entries, pagination } });
    try {
      yield this.liquid.renderer.renderTemplates(this.body, ctx, emitter);
    } finally {
      ctx.pop();
    }
  }
}
