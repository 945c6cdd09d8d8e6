// The CMS's own tags in templates: `cms_scripts` outputs the CMS stylesheet and script (either left out
// with `css: false` / `js: false`), `form_for` a CMS
// form (form-for.ts), `query` a page of a collection's entries (query-tag.ts) and `paginate` Shopify's
// pagination (paginate-tag.ts; its `default_pagination` filter is registered with the others). Every
// tag, Liquid's own included, then runs paced (render-guard.ts).
import {
  CaseTag,
  type Context,
  type Emitter,
  evalToken,
  Hash,
  type Liquid,
  Tag,
  type Template,
  toValue,
} from "liquidjs";
import { DocTag } from "../schema/templates/liquid.ts";
import { FormFor } from "./form-for.ts";
import { PaginateTag } from "./paginate-tag.ts";
import { QueryTag } from "./query-tag.ts";
import { pace } from "./render-guard.ts";

const CMS_CSS = '<link rel="stylesheet" href="/cms/cms.css">';
const CMS_JS = '<script type="module" src="/cms/cms.js"></script>';
export const CMS_ASSETS = `${CMS_CSS}\n${CMS_JS}`;

export function registerCmsTags(engine: Liquid): void {
  engine.registerTag("form_for", FormFor);
  engine.registerTag("query", QueryTag);
  engine.registerTag("paginate", PaginateTag);
  engine.registerTag("cms_scripts", CmsScripts);
  engine.registerTag("doc", DocTag);
  // The service's `{% locale %}`: its sites are in one locale.
  engine.registerTag(
    "locale",
    class extends Tag {
      render(_ctx: Context, emitter: Emitter): void {
        emitter.write("en-us");
      }
    },
  );
  engine.registerTag("case", SizedCase);
  for (const [name, tag] of Object.entries(engine.tags)) engine.registerTag(name, paced(tag));
}

type TagClass = Liquid["tags"][string];

/** `{% cms_scripts %}`, `{% cms_scripts css: false %}`, `{% cms_scripts js: false %}` (the service's options). */
class CmsScripts extends Tag {
  private readonly options: Hash;

  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    this.options = new Hash(args[0].args);
  }

  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const options = (yield this.options.render(ctx)) as Record<string, unknown>;
    const wanted = (name: string) => options[name] !== false && options[name] !== "false";
    emitter.write([wanted("css") ? CMS_CSS : "", wanted("js") ? CMS_JS : ""].filter(Boolean).join("\n"));
  }
}

/** A node rendering nothing that paces the render: put at the end of each loop body and template. */
export const pacer = (token: Template["token"]): Template => ({ token, render: (ctx: Context) => pace(ctx) });

/**
 * The tag paced before it renders. A loop (`for`, `tablerow`) also paces each iteration, so that not even a
 * body of plain text is a stretch the process cannot leave.
 */
function paced(Base: TagClass): TagClass {
  return class extends Base {
    constructor(...args: ConstructorParameters<TagClass>) {
      super(...args);
      const { templates, token } = this as unknown as { templates?: unknown; token: Template["token"] };
      if (Array.isArray(templates)) templates.push(pacer(token));
    }
    *render(ctx: Context, emitter: Emitter): Generator<unknown, unknown, unknown> {
      yield pace(ctx);
      // Every registered tag implements render; Tag declares it abstract.
      const render = Base.prototype.render as Tag["render"];
      return yield render.call(this, ctx, emitter);
    }
  };
}

/**
 * Liquid's `case` compares its value with each `when` directly, not through the operators (engine.ts
 * paces and size-checks those): this one compares through `==`, so huge lists are refused there.
 */
class SizedCase extends CaseTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const equal = ctx.opts.operators["=="] as (l: unknown, r: unknown, ctx: Context) => unknown;
    const target = yield toValue(yield this.value.value(ctx, ctx.opts.lenientIf));
    for (const branch of this.branches) {
      for (const token of branch.values) {
        const value = yield evalToken(token, ctx, ctx.opts.lenientIf);
        if (yield equal(target, value, ctx)) {
          yield this.liquid.renderer.renderTemplates(branch.templates, ctx, emitter);
          return;
        }
      }
    }
    yield this.liquid.renderer.renderTemplates(this.elseTemplates, ctx, emitter);
  }
}
