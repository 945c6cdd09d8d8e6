// One page of an account's site, rendered from its SiteData by a render worker (render-pool.ts,
// site-render.ts): the page's template inside its layout, or the site's 404 page, reaching only this
// account's templates, forms and entry lists and stopped at the render limits. The public site (index.ts)
// and previews (preview.ts) render here alike; they differ only in the query that loaded the SiteData and
// its entry lists.
import { GRAPHQL_MAX_INT } from "graphql";
import { log } from "../log.ts";
import type { FormState } from "./form-drop.ts";
import { renderInWorker } from "./render-pool.ts";
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
 * tags' lists, `formState` is a failed submission to show again. Throws what the render throws. A partial
 * the templates name that the account lacks renders as nothing, and is logged.
 */
export async function renderSitePage(
  site: SiteData,
  url: URL,
  page: number,
  entries: (args: EntryListArgs) => Promise<EntryList | null>,
  formState?: FormState,
): Promise<RenderedSitePage> {
  const rendered = await renderInWorker({ site, url: url.href, page, formState }, entries);
  if (rendered.missingPartials.length > 0)
    log({
      level: "warn",
      msg: "partial not found",
      host: site.domain,
      path: url.pathname,
      partials: rendered.missingPartials,
    });
  return { status: rendered.status, body: rendered.body, varies: rendered.varies };
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
