// The CMS's own tags in templates: `cms_scripts` outputs the CMS stylesheet and script, `form_for` a CMS
// form (form-for.ts), `query` a page of a collection's entries (query-tag.ts) and `paginate` Shopify's
// pagination (paginate-tag.ts; its `default_pagination` filter is registered with the others).
import { type Liquid, Tag } from "liquidjs";
import { FormFor } from "./form-for.ts";
import { PaginateTag } from "./paginate-tag.ts";
import { QueryTag } from "./query-tag.ts";

export const CMS_ASSETS =
  '<link rel="stylesheet" href="/cms/cms.css">\n<script src="/cms/cms.js" defer></script>';

export function registerCmsTags(engine: Liquid): void {
  engine.registerTag("form_for", FormFor);
  engine.registerTag("query", QueryTag);
  engine.registerTag("paginate", PaginateTag);
  engine.registerTag(
    "cms_scripts",
    class extends Tag {
      render(_ctx: Parameters<Tag["render"]>[0], emitter: Parameters<Tag["render"]>[1]): void {
        emitter.write(CMS_ASSETS);
      }
    },
  );
}
