// The CMS's own tags and filters in templates. `cms_scripts` outputs the CMS stylesheet and script,
// `form_for` a CMS form (form-for.ts); `query` and `paginate` render their body for now (their own
// behaviour is still to come), so that themes using them render rather than fail.
import { type Liquid, Tag } from "liquidjs";
import { blockTag } from "../schema/templates/liquid.ts";
import { formForTag } from "./form-for.ts";
import type { SiteForm } from "./site-data.ts";

export const CMS_ASSETS =
  '<link rel="stylesheet" href="/cms/cms.css">\n<script src="/cms/cms.js" defer></script>';

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
