// One page of an account's site, rendered from its SiteData: the page's template inside its layout, or
// the site's 404 page, in a render scope that reaches only this account's templates, forms and entry
// lists and stops at the render limits. The public site (index.ts) and previews (preview.ts) render
// here alike; they differ only in the query that loaded the SiteData and its entry lists.
import { GRAPHQL_MAX_INT } from "graphql";
import { engine } from "./engine.ts";
import type { FormState } from "./form-drop.ts";
import { renderNotFound, renderPage } from "./page.ts";
import { type RenderScope, withRenderScope } from "./render-scope.ts";
import type { EntryList, EntryListArgs, SiteData } from "./site-data.ts";

export interface RenderedSitePage {
  /** 404 when the site has no page at the URL (the body is then its 404 page). */
  status: 200 | 404;
  body: string;
  /** The output may differ next time (it showed the current time or sampled at random). */
  varies: boolean;
}

/**
 * Renders `site.page` as the page at `url` (`page` being its `?page=N`, unless the schema found the page
 * number in the path), or the 404 page when there is none; `entries` reads the `query` and `paginate`
 * tags' lists, `formState` is a failed submission to show again. Throws what the render throws.
 */
export async function renderSitePage(
  site: SiteData,
  url: URL,
  page: number,
  entries: (args: EntryListArgs) => Promise<EntryList | null>,
  formState?: FormState,
): Promise<RenderedSitePage> {
  const lists = new Map<string, Promise<EntryList | null>>();
  const scope: RenderScope = {
    accountId: site.id,
    templates: new Map(site.templates.map((template) => [template.handle, template.html])),
    forms: site.forms,
    formState,
    page: site.page?.current_page ?? page,
    path: site.page?.base_path ?? url.pathname,
    // The same list asked for twice (a query in a loop, say) is read once per render.
    entries: (args) => {
      const key = JSON.stringify(args);
      const list = lists.get(key) ?? entries(args);
      lists.set(key, list);
      return list;
    },
  };
  const has = (handle: string) => scope.templates.has(handle);
  const shown = site.page;
  const body = await withRenderScope(scope, () =>
    shown ? renderPage(engine, site, shown, url, has) : renderNotFound(engine, site, url, has),
  );
  return { status: shown ? 200 : 404, body, varies: scope.varies === true };
}

/** The `?page=N` of a URL: 1 when absent or not a positive number. */
export function pageNumber(url: URL): number {
  const requested = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  // The `page` argument is a GraphQL Int: a larger number asks for a page past any end all the same.
  return Number.isFinite(requested) && requested > 0 ? Math.min(requested, GRAPHQL_MAX_INT) : 1;
}

/** The path a URL names, as pages are stored (percent-decoded). */
export function pagePath(url: URL): string {
  const { pathname } = url;
  try {
    const decoded = decodeURIComponent(pathname);
    // No page path holds a control character (NUL is not even storable text): such a request looks up
    // the raw path instead, which names no page (404, not a database error).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
    return /[\u0000-\u001f\u007f]/.test(decoded) ? pathname : decoded;
  } catch {
    return pathname;
  }
}
