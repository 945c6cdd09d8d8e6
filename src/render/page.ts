// Rendering one page: its template, then its layout around it (decisions.md, "Site rendering"). The
// layout places the page with `content_for_layout` and head extras with `content_for_header`.
import type { Liquid } from "liquidjs";
import { contentForHeader } from "./head.ts";
import type { SiteData, SitePage } from "./site-data.ts";

/** Context shared by every page: globals at the top level and under `globals`, navigations, the site. */
function siteContext(site: SiteData, currentPath: string): Record<string, unknown> {
  return {
    ...site.globals,
    globals: site.globals,
    navigation: site.navigations,
    current_path: currentPath,
    site: { name: site.name, domain: site.domain },
  };
}

/** Page context: an entry's fields at the top level (winning over globals), as `entry` and under its collection. */
function pageContext(page: SitePage): Record<string, unknown> {
  if (page.kind === "entry" && page.entry) {
    return { ...page.entry, entry: page.entry, [page.collection.handle]: page.entry };
  }
  const entries = page.entries ?? [];
  return {
    entries,
    pagination: page.pagination,
    collection: page.collection,
    [page.collection.handle]: { ...page.collection, entries },
  };
}

export async function renderPage(
  engine: Liquid,
  site: SiteData,
  page: SitePage,
  url: URL,
  has: (handle: string) => boolean,
): Promise<string> {
  const context = { ...siteContext(site, url.pathname), ...pageContext(page) };
  const title = String(page.entry?.title ?? page.collection.name);
  const description = typeof page.entry?.description === "string" ? page.entry.description : undefined;
  const header = contentForHeader({
    title: `${title} | ${site.name}`,
    description,
    canonical: `${url.protocol}//${url.host}${url.pathname}`,
    // decisions.md names one type for every page of a collection, index pages included.
    schemaType: page.collection.schema_type,
    publishedAt: page.entry?.published_at,
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
  const context = siteContext(site, url.pathname);
  const header = contentForHeader({
    title: `Not found | ${site.name}`,
    canonical: `${url.protocol}//${url.host}${url.pathname}`,
    schemaType: null,
  });
  const body = await engine.renderFile("404", { ...context, content_for_header: header });
  if (!has("theme")) return body;
  return engine.renderFile("theme", { ...context, content_for_layout: body, content_for_header: header });
}
