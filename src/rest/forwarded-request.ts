// The request sofa's router matches and binds (sofa.ts). The contract's PATCH is the PUT route and HEAD the
// GET route (decisions.md), where sofa routes one method per field. The body is no argument sofa binds by
// name: it is read once the route is known (run-route.ts), so sofa gets none, and `input` in the query
// string is no argument either (the body alone is the input). A path segment whose percent escape is
// malformed is looked up as sent, where sofa's router would refuse to decode it; a trailing slash names the
// same resource as the path without it, where sofa's router would match no route.
import { Request } from "../http/fetch-api.ts";
import { resourcePath } from "../http/validators.ts";

export function forwardedRequest(request: Request, url: URL): Request {
  const method = request.method === "HEAD" ? "GET" : request.method === "PATCH" ? "PUT" : request.method;
  const trimmed = resourcePath(url.pathname);
  const path = trimmed.includes("%") ? decodablePath(trimmed) : trimmed;
  if (method === "GET" && request.body === null && path === url.pathname) return request;
  let search = url.search;
  if (method !== "GET" && url.searchParams.has("input")) {
    const query = new URLSearchParams(url.search);
    query.delete("input");
    search = query.size > 0 ? `?${query}` : "";
  }
  return new Request(`${url.origin}${path}${search}`, { method });
}

/** Each segment as sent, its `%` escaped where it starts no valid escape sequence. */
function decodablePath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll("%", "%25");
      }
    })
    .join("/");
}
