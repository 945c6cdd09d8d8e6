// Rendering one page: its template, then its layout around it (decisions.md, "Site rendering"). The
// layout places the page with `content_for_layout` and head extras with `content_for_header`.
import type { Liquid } from "liquidjs";
import { withoutTrailingSlash } from "../schema/site/trailing-slash.ts";
import { contentForHeader } from "./head.ts";
import type { SiteData, SitePage } from "./site-data.ts";

/**
 * What the service itself gives every page: each global by its handle (so the global `site` is `site`),
 * `navigation.<handle>`, `current_path`, `current_page`, `forms`. The CMS's extras stay reachable without
 * hiding any of it: `globals`, and `site.name`/`site.domain` under the `site` global's own fields.
 */
function serviceVariables(site: SiteData, currentPath: string, currentPage: number) {
  return {
    globals: site.globals,
    navigation: site.navigations,
    forms: site.forms,
    current_path: currentPath,
    current_page: currentPage,
    site: { name: site.name, domain: site.domain, ...site.globals.site },
  };
}

/**
 * A page's variables: the globals, then what the page adds, then the service's variables, which nothing
 * hides (a page with a field `navigation` or `site` still renders the layout's menu and title).
 */
function contextOf(
  site: SiteData,
  path: string,
  currentPage: number,
  page?: SitePage,
): Record<string, unknown> {
  return {
    ...site.globals,
    ...(page && pageVariables(page, currentPage)),
    ...serviceVariables(site, path, currentPage),
  };
}

/**
 * An entry's fields at the top level (winning over globals, decisions.md), the entry as `entry` and under
 * its collection's handle; an index page's entries as `<handle>.entries`, its `pagination` and, as on the
 * service, `page` the page number.
 */
function pageVariables(page: SitePage, currentPage: number): Record<string, unknown> {
  if (page.kind === "entry" && page.entry) {
    return { ...page.entry, entry: page.entry, [page.collection.handle]: page.entry };
  }
  const entries = page.entries ?? [];
  return {
    entries,
    pagination: { ...page.pagination, page: currentPage },
    collection: page.collection,
    [page.collection.handle]: { ...page.collection, entries },
    page: currentPage,
  };
}

export async function renderPage(
  engine: Liquid,
  site: SiteData,
  page: SitePage,
  url: URL,
  has: (handle: string) => boolean,
): Promise<string> {
  const currentPage = page.current_page ?? 1;
  const path = withoutTrailingSlash(url.pathname);
  const context = contextOf(site, path, currentPage, page);
  const title = String(page.entry?.title ?? page.collection.name);
  const description = typeof page.entry?.description === "string" ? page.entry.description : undefined;
  const header = contentForHeader({
    title: `${title} | ${site.name}`,
    description,
    // An index page's own URL, as its page links write it (`/blog` for page 1, `/blog/page/3` for
    // `/blog?page=3`); an entry's, the path it was asked at.
    canonical: `${url.protocol}//${url.host}${(page.kind === "index" && page.path) || path}`,
    // decisions.md names one type for every page of a collection, index pages included.
    schemaType: page.collection.schema_type,
    publishedAt: page.entry?.published_at,
    path,
  });
  const body = await engine.renderFile(page.template, { ...context, content_for_header: header });
  if (!has(page.layout)) return body;
  return engine.renderFile(page.layout, { ...context, content_for_layout: body, content_for_header: header });
}

/** The `404` template inside the `theme` layout when they exist, else a plain page. */
export async function renderNotFound(
  engine: Liquid,
  site: SiteData,
  url: URL,
  has: (handle: string) => boolean,
): Promise<string> {
  if (!has("404")) return "Not found\n";
  const context = contextOf(site, url.pathname, 1);
  const header = contentForHeader({
    title: `Not found | ${site.name}`,
    canonical: `${url.protocol}//${url.host}${url.pathname}`,
    schemaType: null,
    path: url.pathname,
  });
  const body = await engine.renderFile("404", { ...context, content_for_header: header });
  if (!has("theme")) return body;
  return engine.renderFile("theme", { ...context, content_for_layout: body, content_for_header: header });
}
