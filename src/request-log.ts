// One log line per HTTP request (src/log.ts): request ID (also answered as X-Request-Id), method, path
// without the query string, status and duration. Never headers, query strings or bodies, so never a token.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type Log, log } from "./log.ts";

/** A client's own X-Request-Id is kept when it is a short plain token; otherwise a new UUID. */
const clientIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const sent = request.headers["x-request-id"];
  return typeof sent === "string" && clientIdPattern.test(sent) ? sent : randomUUID();
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
        path: (request.url ?? "/").split("?")[0],
        status,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(!response.writableFinished && { aborted: true }),
      });
    });
    handler(request, response);
  };
}
