// The CMS's own tags and filters in templates. `cms_scripts` outputs the CMS stylesheet and script;
// `form_for`, `query` and `paginate` render their body (their full behaviour comes with forms and queries
// on the site), so that themes using them render rather than fail.
import { type Liquid, type Parser, Tag, type TagToken, type Template, type TopLevelToken } from "liquidjs";

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

export function registerCmsTags(engine: Liquid): void {
  for (const name of ["form_for", "query", "paginate"]) engine.registerTag(name, blockTag(name));
  engine.registerTag(
    "cms_scripts",
    class extends Tag {
      *render(_ctx: Parameters<Tag["render"]>[0], emitter: Parameters<Tag["render"]>[1]) {
        emitter.write(CMS_ASSETS);
      }
    },
  );
  engine.registerFilter(
    "asset_url",
    (path: unknown) => `/assets/${String(path ?? "").replace(/^\/+|^assets\//g, "")}`,
  );
}
