// Asset files on an account's public site: GET/HEAD /assets/<path>/<filename> on the account's domain,
// with the asset's content type and length, an ETag (the bytes of an asset ID never change) and single
// byte ranges (video players need them). Unknown hosts, paths and assets get 404.
import { Readable } from "node:stream";
import { Response } from "../http/fetch-api.ts";
import { matchesIfNoneMatch } from "../http/http-cache.ts";
import { isActiveContent } from "../schema/assets/content-types.ts";
import { findPublicAsset } from "../schema/assets/public.ts";
import type { Context } from "../schema/index.ts";

export const ASSETS_PREFIX = "/assets/";

export async function serveAsset(request: Request, ctx: Context, pathname: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return text("Method not allowed\n", 405, { allow: "GET, HEAD" });
  }
  const asset = await findPublicAsset(ctx, pathname.slice(ASSETS_PREFIX.length));
  if (!asset) return notFound();

  const etag = `"${asset.id}"`;
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "accept-ranges": "bytes",
    etag,
    "last-modified": asset.createdAt.toUTCString(),
    "cache-control": "public, max-age=0, must-revalidate",
    "x-content-type-options": "nosniff",
    // An uploaded SVG or HTML file must not run script on the site's origin.
    ...(isActiveContent(asset.contentType) && { "content-security-policy": "sandbox" }),
  };
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }

  const range = byteRange(request.headers.get("range"), asset.fileSize);
  if (range === "unsatisfiable") {
    return text("Range not satisfiable\n", 416, { "content-range": `bytes */${asset.fileSize}` });
  }
  const length = range ? range.end - range.start + 1 : asset.fileSize;
  headers["content-length"] = String(length);
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${asset.fileSize}`;
  const status = range ? 206 : 200;
  if (request.method === "HEAD") return new Response(null, { status, headers });

  if (length === 0) return new Response(null, { status, headers });
  const stream = await asset.open(range ?? undefined);
  if (!stream) return notFound();
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
}

/**
 * One range of `bytes=start-end`, `bytes=start-` or `bytes=-suffix`; null (the whole file) when there is
 * no usable Range header (several ranges are answered with the whole file too).
 */
function byteRange(
  header: string | null,
  size: number,
): { start: number; end: number } | null | "unsatisfiable" {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return null;
  let start: number;
  let end: number;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== "" && Number(to) < start) return null;
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

function notFound(): Response {
  return text("Not found\n", 404);
}

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}
