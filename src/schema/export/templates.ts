// The `templates` section: every layout, template and partial with its Liquid source. A source may be as
// large as 1 MB, so they are read a page at a time.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { creationOrder, inPages } from "./keyset.ts";
import { yamlEntry, yamlItems, yamlKey } from "./yaml-text.ts";

const TEMPLATE_PAGE = 50;

export async function* templatesSection(ctx: Context, scope: AccountScope): AsyncGenerator<string> {
  let any = false;
  const pages = inPages(
    (after, take) =>
      ctx.db.template.findMany({
        where: { ...scope, ...after },
        orderBy: creationOrder(),
        take,
        select: { id: true, createdAt: true, handle: true, title: true, kind: true, html: true },
      }),
    TEMPLATE_PAGE,
  );
  for await (const rows of pages) {
    if (!any) yield yamlKey("templates");
    any = true;
    yield yamlItems(
      rows.map(({ handle, title, kind, html }) => ({ handle, title, kind, html })),
      2,
    );
  }
  if (!any) yield yamlEntry("templates", []);
}
