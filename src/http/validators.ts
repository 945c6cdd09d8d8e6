// Conditional GET for the API and site pages (docs/api-notes.md, "Caching and validators"): each read's
// tag comes from the schema (src/schema/validators) before the transport runs, so an If-None-Match that
// names it is answered 304 without running any operation. A 200 answer gets the tag and the read's
// Cache-Control; one that set its own caching (asset files, preview links, the export, the API's
// documents) or varies from one answer to the next keeps its own headers, and no tag.
import type { Context } from "../schema/index.ts";
import { type ReadShape, readTag } from "../schema/validators/index.ts";
import { Response } from "./fetch-api.ts";
import { matchesIfNoneMatch } from "./http-cache.ts";

/** The API's answers are the caller's own, and checked with the server before each use. */
export const API_CACHE_CONTROL = "private, no-cache";

/** Site pages: `public, s-maxage=…, stale-while-revalidate=…` from SITE_S_MAXAGE and its neighbour. */
export function siteCacheControl(settings: { sMaxAge: number; staleWhileRevalidate: number }): string {
  return `public, s-maxage=${settings.sMaxAge}, stale-while-revalidate=${settings.staleWhileRevalidate}`;
}

export type ReadKind = "rest" | "graphql" | "site";

/** A REST path names the same resource with or without trailing slashes (forwarded-request.ts). */
export function resourcePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

/** A REST read: the resource's path and its query. */
function restRead(url: URL): ReadShape {
  return { path: resourcePath(url.pathname), query: url.search };
}

/** What a write's If-Match is checked against: the read of its resource, a GET of its path without query. */
export function writtenResource(url: URL): ReadShape {
  return { ...restRead(url), query: "" };
}

function readShape(kind: ReadKind, request: Request, url: URL): ReadShape {
  if (kind === "rest") return restRead(url);
  if (kind === "site") {
    // As the page cache keys a page: the scheme and the Host as sent (the page's own links name them).
    const variant = `${url.protocol}${request.headers.get("host") ?? ""}`;
    return { path: url.pathname, query: url.search, variant };
  }
  // A GraphQL GET's answer depends on its four parameters and, for its status and type, on Accept.
  const params = url.searchParams;
  const query = ["query", "variables", "operationName", "extensions"].map((name) => params.get(name) ?? "");
  return { path: url.pathname, query: JSON.stringify(query), variant: request.headers.get("accept") ?? "" };
}

/** `answer` run under the request's validators; only GET and HEAD are given to this. */
export async function validatedRead(
  kind: ReadKind,
  request: Request,
  ctx: Context,
  url: URL,
  cacheControl: string,
  answer: () => Promise<Response>,
): Promise<Response> {
  const tag = await readTag(ctx, readShape(kind, request, url));
  const ifNoneMatch = request.headers.get("if-none-match");
  // `*` is left to the answer: it matches only an answer that exists. An API tag is honoured for a token
  // that is still valid (the tag was made with it, but the check costs a kept lookup only).
  const current = tag !== undefined && matchesIfNoneMatch(ifNoneMatch, tag, false);
  if (current && (kind === "site" || (await ctx.viewer()))) return notModified(tag, cacheControl);
  const response = await answer();
  if (!tag || response.status !== 200 || ctx.answerVaries) return response;
  if (response.headers.has("cache-control") || response.headers.has("etag")) return response;
  if (matchesIfNoneMatch(ifNoneMatch, tag)) return notModified(tag, cacheControl);
  response.headers.set("etag", tag);
  response.headers.set("cache-control", cacheControl);
  return response;
}

function notModified(etag: string, cacheControl: string): Response {
  return new Response(null, { status: 304, headers: { etag, "cache-control": cacheControl } });
}
