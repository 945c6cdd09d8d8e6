// A preview of an account's site for its editor (the tool `site_preview`; signed preview links later):
// a page by path, exactly as the public site renders it there (its 404 page included), or one entry's
// page whether published or not. Rendered like every site page (site-page.ts), from `sitePreview`
// instead of the Host's `site`, at the origin https://<account domain>; never kept, since it may show
// what visitors may not see. A template that fails is a 422 saying what broke: the reader is the editor.
// Only pages are previewed: at the path of robots.txt, the sitemap or a feed it renders what `page` finds.
import { GraphQLError, type GraphQLSchema } from "graphql";
import { ApiError, toApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { loadPreviewEntryList, loadPreviewSite, type PreviewTarget } from "./preview-data.ts";
import { pageNumber, pagePath, renderSitePage } from "./site-page.ts";

export type { PreviewTarget };

export interface RenderedPreview {
  /** 200, or 404 for a path the site shows no page at (the html is then the site's 404 page). */
  status: number;
  html: string;
}

/**
 * Renders `target` on the site of `accountId`, which the caller's token must be allowed to read.
 * Throws ApiErrors: 401/403 from the token, 404 for an unknown entry or collection, 422 for a template
 * that fails to render; anything unexpected as it is (a 500 to the transport).
 */
export async function renderPreview(
  schema: GraphQLSchema,
  ctx: Context,
  accountId: string,
  target: PreviewTarget,
): Promise<RenderedPreview> {
  const asked = "path" in target ? siteUrl("site.invalid", target.path) : undefined;
  const page = asked ? pageNumber(asked) : 1;
  const shown = asked ? { path: pagePath(asked), page } : target;
  const site = await loadPreviewSite(schema, ctx, accountId, shown).catch((error: unknown) => {
    throw schemaError(error);
  });
  if (!site) throw ApiError.notFound("Account");
  if (!site.page && "collection" in target)
    throw ApiError.notFound(`Entry '${target.handle}' of collection '${target.collection}'`);
  // An entry is shown at its path on the site ("/" when its collection gives it none).
  const path = asked ? `${asked.pathname}${asked.search}` : String(site.page?.entry?.content_path ?? "/");
  const url = siteUrl(site.domain, path);
  // Liquid would only say it found no file (ENOENT); the editor is told which template is missing.
  const template = site.page?.template;
  if (template && !site.templates.some((source) => source.handle === template))
    throw renderFailed(`the page's template '${template}' does not exist`);
  try {
    const rendered = await renderSitePage(site, url, page, (args) =>
      loadPreviewEntryList(schema, ctx, accountId, args),
    );
    return { status: rendered.status, html: rendered.body };
  } catch (error) {
    throw renderError(error);
  }
}

/**
 * `path` (with its `?page=N`) on the site at `host`, as a request URL would carry it: whatever the path
 * holds (`//other.host/`, `https://…`), it stays a path on that host.
 */
function siteUrl(host: string, path: string): URL {
  return new URL(`https://${host}${path.startsWith("/") ? "" : "/"}${path}`);
}

/** An error of a schema execution: the ApiError it carries, else as it is (unexpected: a 500). */
function schemaError(error: unknown): unknown {
  const apiError = toApiError(error);
  return apiError.status < 500 ? apiError : error;
}

/**
 * A failed render: a 422 with Liquid's message (it names the template, line and column) unless the
 * failure came from the schema (an entry list a tag read), which keeps its own status.
 */
function renderError(error: unknown): unknown {
  for (let cause: unknown = error; cause instanceof Error; cause = originalError(cause))
    if (cause instanceof GraphQLError) return schemaError(cause);
  return renderFailed(error instanceof Error ? error.message : String(error));
}

const renderFailed = (message: string) =>
  new ApiError(422, "The page could not be rendered", [{ path: "template", message }]);

/** Liquid wraps what a tag or filter threw in its own error, as `originalError`. */
const originalError = (error: Error): unknown => (error as { originalError?: unknown }).originalError;
