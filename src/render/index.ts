// The public site of each account, chosen by the Host header: asset files at their URLs, and pages
// rendered from the account's Liquid templates with data from the schema. A page's ETag and Cache-Control
// are the HTTP step's (src/http/validators.ts), which answers If-None-Match before any rendering; a
// template that fails or runs away answers 500 with a short message. Preview links (preview-link.ts) show
// an entry before it is published, and are never kept.
import type { GraphQLSchema } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { log } from "../log.ts";
import { toApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { isServiceLandingPath } from "../schema/site/host.ts";
import { ASSETS_PREFIX, serveAsset } from "./assets.ts";
import { cmsStatic, robots, rss, sitemap } from "./crawlers.ts";
import { landingPage } from "./landing.ts";
import { PREVIEW_LINK_PATH, servePreviewLink } from "./preview-link.ts";
import { loadEntryList, loadSite } from "./site-data.ts";
import { pageNumber, pagePath, type RenderedSitePage, renderSitePage } from "./site-page.ts";
import { handleSubmit, SUBMIT_PATH } from "./submit.ts";

const html = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });

export function createSiteHandler(schema: GraphQLSchema) {
  return async function handleSite(request: Request, ctx: Context, url: URL): Promise<Response> {
    if (url.pathname.startsWith(ASSETS_PREFIX)) return serveAsset(request, ctx, url.pathname);
    const submission = SUBMIT_PATH.exec(url.pathname);
    if (submission?.[1] && request.method === "POST")
      return handleSubmit(schema, request, ctx, submission[1]);
    if (request.method !== "GET" && request.method !== "HEAD")
      return html("Method not allowed\n", 405, { allow: "GET, HEAD" });
    // Before the page cache: a preview link's page is never kept.
    const previewLink = PREVIEW_LINK_PATH.exec(url.pathname);
    if (previewLink?.[1]) return servePreviewLink(schema, ctx, previewLink[1]);
    const own = cmsStatic(url.pathname);
    if (own) return own;

    const page = pageNumber(url);
    // All a page depends on besides the data; the Host as sent (the account is found by it), not as the
    // URL parser rewrote it. Other query parameters change nothing, so they do not make new keys.
    const key = ["page", url.protocol, request.headers.get("host"), url.pathname, page].join("\u0000");
    const rendered = await ctx.keep(
      key,
      () => renderRequest(schema, ctx, url, page),
      // Not-found pages are not kept: anyone can ask for endless made-up paths.
      {
        size: (shown) =>
          shown instanceof Response || shown.status !== 200 || shown.varies
            ? undefined
            : shown.body.length * 2,
        answer: true,
      },
    );
    if (rendered instanceof Response) return rendered;
    // Output that differs from one render to the next has no validator (src/http/validators.ts).
    if (rendered.varies) ctx.answerVaries = true;
    return html(rendered.body, rendered.status);
  };
}

async function renderRequest(
  schema: GraphQLSchema,
  ctx: Context,
  url: URL,
  page: number,
): Promise<RenderedSitePage | Response> {
  const site = await loadSite(schema, ctx, pagePath(url), page);
  if (!site) return isServiceLandingPath(url.pathname) ? landingPage() : html("Not found\n", 404);
  if (url.pathname === "/robots.txt") return robots(url.origin);
  if (url.pathname === "/sitemap.xml" && site.sitemap) return sitemap(url.origin, site.sitemap);
  if (site.feed) return rss(url.origin, site.feed);
  try {
    // Kept in the read cache until the data changes, unless its output varies (the current time, a
    // random sample): `varies`.
    return await renderSitePage(site, url, page, (args) => loadEntryList(schema, ctx, args));
  } catch (error) {
    // A database out of reach is the 503 every transport answers (src/app.ts), not a broken template.
    if (toApiError(error).status === 503) throw error;
    log({
      level: "warn",
      msg: "page render failed",
      host: site.domain,
      path: url.pathname,
      error: String(error),
    });
    return html("This page could not be rendered.\n", 500);
  }
}
