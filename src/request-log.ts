// One log line per HTTP request (src/log.ts): request ID (also answered as X-Request-Id), method, path
// without the query string, status and duration. Never headers, query strings or bodies; and the paths
// that carry a secret themselves (a preview link's token) are logged with the secret replaced.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type Log, log } from "./log.ts";

/** A client's own X-Request-Id is kept when it is a short plain token; otherwise a new UUID. */
const clientIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const sent = request.headers["x-request-id"];
  return typeof sent === "string" && clientIdPattern.test(sent) ? sent : randomUUID();
}

/**
 * Paths whose last part is a secret: a preview link (`/cms/preview/<token>`, src/render/preview-link.ts)
 * grants whoever holds it a view of an unpublished entry.
 */
const secretPaths = /^(\/cms\/preview\/)[^/]+/;

/**
 * The path as the server routes it (the URL parser turns `\` into `/` and resolves `.` and `..`, so a
 * spelling that reaches a preview link is read as one), without the query string, its secret redacted.
 */
export function loggedPath(url: string): string {
  let path = url.split("?")[0] ?? "/";
  try {
    path = new URL(`http://host${url.startsWith("/") ? url : `/${url}`}`).pathname;
  } catch {
    // Not a URL the server could route: logged as sent, still redacted.
  }
  return path.replace(secretPaths, "$1[redacted]");
}

/** Wraps a request listener: sets X-Request-Id and logs the request when its response closes. */
export function withRequestLog(handler: RequestListener, write: Log = log): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const started = process.hrtime.bigint();
    const id = requestId(request);
    response.setHeader("x-request-id", id);
    response.once("close", () => {
      // 499 (nginx's "client closed request"): the client left before any answer was sent, and the
      // status the response holds is only its default.
      const status = response.headersSent ? response.statusCode : 499;
      write({
        level: status >= 500 ? "error" : "info",
        msg: "request",
        request_id: id,
        method: request.method,
        path: loggedPath(request.url ?? "/"),
        status,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(!response.writableFinished && { aborted: true }),
      });
    });
    handler(request, response);
  };
}
