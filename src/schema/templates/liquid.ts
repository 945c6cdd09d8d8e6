// Liquid syntax check before a template is saved (content-api.md: invalid syntax returns 422). The
// parser knows the CMS's own tags, so `{% form_for %}…{% endform_for %}` is valid and an unclosed one
// is not; filters are resolved at render time, as in the hosted service.
import { Liquid, type Parser, Tag, TagToken, type Template, type TopLevelToken } from "liquidjs";

export const cmsBlockTags = ["form_for", "query", "paginate"] as const;
export const cmsInlineTags = ["cms_scripts", "locale"] as const;

/** The templates between `{% name %}` and `{% endname %}`; an unclosed block is a parse error. */
export function parseBlockBody(
  token: TagToken,
  remainTokens: TopLevelToken[],
  parser: Parser,
  name: string,
): Template[] {
  const templates: Template[] = [];
  let closed = false;
  const stream = parser
    .parseStream(remainTokens)
    .on(`tag:end${name}`, () => {
      closed = true;
      stream.stop();
    })
    .on("template", (template: Template) => templates.push(template))
    .on("end", () => {
      if (!closed) throw new Error(`tag ${token.getText()} not closed`);
    });
  stream.start();
  return templates;
}

/** `{% paginate %}`'s arguments: `<list>`, `<list> by <size>`, either followed by `window_size: <n>` (the service's syntax). */
export const PAGINATE_SYNTAX =
  /^\s*([^\s,]+?)(?:\s+by\s+([^\s,]+?))?\s*(?:,?\s*window_size\s*:\s*([^\s,]+))?\s*$/;

/** What each CMS block tag requires of its arguments, checked when a template is saved. */
const argumentChecks: Partial<Record<string, (args: string) => void>> = {
  paginate: (args) => {
    if (!PAGINATE_SYNTAX.test(args))
      throw new Error(`paginate needs "<list> [by <page size>]", got "${args}"`);
  },
};

/** A block tag that renders its body: how the syntax check sees the CMS's block tags. */
export function blockTag(name: string) {
  return class extends Tag {
    private readonly body: Template[];
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
      super(token, remainTokens, liquid);
      argumentChecks[name]?.(token.args);
      this.body = parseBlockBody(token, remainTokens, parser, name);
    }
    *render(ctx: Parameters<Tag["render"]>[0], emitter: Parameters<Tag["render"]>[1]) {
      yield this.liquid.renderer.renderTemplates(this.body, ctx, emitter);
    }
  };
}

class InlineTag extends Tag {
  *render(): Generator<unknown, void, unknown> {}
}

/**
 * `{% doc %}…{% enddoc %}`: a theme's notes on a partial's parameters (the hosted service's tag). The
 * body is neither parsed as Liquid nor rendered, so its `@example` may hold tags.
 */
export class DocTag extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    if (token.args.trim() !== "") throw new Error("doc tag does not accept arguments");
    while (remainTokens.length > 0) {
      const next = remainTokens.shift();
      if (next instanceof TagToken && next.name === "enddoc") return;
    }
    throw new Error(`tag ${token.getText()} not closed`);
  }
  *render(): Generator<unknown, void, unknown> {}
}

const checker = new Liquid();
checker.registerTag("doc", DocTag);
for (const name of cmsBlockTags) checker.registerTag(name, blockTag(name));
for (const name of cmsInlineTags) checker.registerTag(name, InlineTag);

/** The parser's error for invalid Liquid (a LiquidError, which knows its token), or undefined. */
export function liquidParseFailure(html: string): Error | undefined {
  try {
    checker.parse(html);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** The parser's message (with line and column) for invalid Liquid, or undefined when it parses. */
export function liquidSyntaxError(html: string): string | undefined {
  return liquidParseFailure(html)?.message;
}
