// The CMS's own tags and filters in templates. `cms_scripts` outputs the CMS stylesheet and script,
// `form_for` a CMS form (form-for.ts); `query` and `paginate` render their body for now (their own
// behaviour is still to come), so that themes using them render rather than fail.
import { type Liquid, type Parser, Tag, type TagToken, type Template, type TopLevelToken } from "liquidjs";
import { formForTag } from "./form-for.ts";
import type { SiteForm } from "./site-data.ts";

export const CMS_ASSETS =
  '<link rel="stylesheet" href="/cms/cms.css">\n<script src="/cms/cms.js" defer></script>';

function blockTag(name: string) {
  return class extends Tag {
    templates: Template[] = [];
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
      super(token, remainTokens, liquid);
      let closed = false;
      const stream = parser
        .parseStream(remainTokens)
        .on(`tag:end${name}`, () => {
          closed = true;
          stream.stop();
        })
        .on("template", (template: Template) => this.templates.push(template))
        .on("end", () => {
          if (!closed) throw new Error(`tag ${token.getText()} not closed`);
        });
      stream.start();
    }
    *render(ctx: Parameters<Tag["render"]>[0], emitter: Parameters<Tag["render"]>[1]) {
      yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    }
  };
}

export function registerCmsTags(engine: Liquid, forms: Record<string, SiteForm>): void {
  engine.registerTag("form_for", formForTag(forms));
  for (const name of ["query", "paginate"]) engine.registerTag(name, blockTag(name));
  engine.registerTag(
    "cms_scripts",
    class extends Tag {
      render(_ctx: Parameters<Tag["render"]>[0], emitter: Parameters<Tag["render"]>[1]): void {
        emitter.write(CMS_ASSETS);
      }
    },
  );
  engine.registerFilter(
    "asset_url",
    (path: unknown) => `/assets/${String(path ?? "").replace(/^\/+|^assets\//g, "")}`,
  );
}
