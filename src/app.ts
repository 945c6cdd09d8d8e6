// The HTTP application: one fetch handler that hands each request to its transport, after the
// transport-level guards every request passes: the rate limit (API and form posts) and a hard timeout.
import type { IncomingMessage } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import type { Config } from "./config.ts";
import { contextDeps } from "./context-deps.ts";
import { type Database, ping } from "./db/client.ts";
import { Deadline } from "./db/deadline.ts";
import { countQueries, queryCountingEnabled } from "./db/query-count.ts";
import { createGraphQLHandler, GRAPHQL_PATH } from "./graphql.ts";
import type { Response } from "./http/fetch-api.ts";
import { API_CACHE_CONTROL, type ReadKind, siteCacheControl, validatedRead } from "./http/validators.ts";
import { log } from "./log.ts";
import { noOutbox, type Outbox } from "./mail/outbox.ts";
import { createMcpHandler, MCP_PATH } from "./mcp/index.ts";
import { type RateLimiter, tooManyRequests, withBudget } from "./rate-limit/index.ts";
import { clientIp, rateLimitSubject } from "./rate-limit/request.ts";
import { ASSETS_PREFIX } from "./render/assets.ts";
import { createSiteHandler } from "./render/index.ts";
import { errorResponse, json } from "./rest/errors.ts";
import { createRestHandler } from "./rest/index.ts";
import { ENVELOPE } from "./rest/upload.ts";
import { createContext, publicSchema, schema } from "./schema/index.ts";
import { ReadCache, readBudgets } from "./schema/read-cache.ts";
import type { Storage } from "./storage/storage.ts";
import type { Dispatcher } from "./webhooks/dispatcher.ts";

type AppConfig = Pick<
  Config,
  | "jsonBodyLimit"
  | "uploadLimit"
  | "requestTimeoutMs"
  | "trustProxy"
  | "readCacheBytes"
  | "lookupCacheBytes"
  | "outboundAllowPrivate"
  | "history"
  | "siteCache"
>;

export function createApp(
  database: Database,
  storage: Storage,
  config: AppConfig,
  limiter: RateLimiter,
  outbox: Outbox = noOutbox,
  webhooks?: Dispatcher,
) {
  const counting = queryCountingEnabled();
  const budgets = readBudgets(config);
  const reads = budgets && new ReadCache(budgets);
  const deps = contextDeps(database, storage, config, {
    outbox,
    submissions: limiter.submissions,
    reads,
    webhookDispatch: webhooks,
  });
  // The dispatcher reads records as requests do (an event's data), so it shares their context's parts.
  webhooks?.start(deps);
  const rest = createRestHandler({ schema, jsonBodyLimit: config.jsonBodyLimit });
  const graphql = createGraphQLHandler(publicSchema, config.jsonBodyLimit);
  const site = createSiteHandler(schema);
  // assets_upload sends a file as base64 in the message: as large as a JSON upload to REST may be.
  const mcpBodyLimit = Math.max(config.jsonBodyLimit, config.uploadLimit + ENVELOPE);
  const mcp = createMcpHandler({ schema, bodyLimit: mcpBodyLimit, log });
  // Each read's Cache-Control (docs/api-notes.md, "Caching and validators").
  const caching = {
    rest: API_CACHE_CONTROL,
    graphql: API_CACHE_CONTROL,
    site: siteCacheControl(config.siteCache),
  };

  async function dispatch(request: Request, url: URL, ip: string, deadline: Deadline): Promise<Response> {
    const context = createContext(deps, request, ip, "any", deadline);
    const { pathname } = url;
    const isGraphQL = pathname === GRAPHQL_PATH;
    const isApi = isGraphQL || pathname === "/v1" || pathname.startsWith("/v1/");
    // Site pages are public and cacheable; only what writes (form submissions) is limited, by IP.
    const limited = isApi || (request.method !== "GET" && request.method !== "HEAD");
    const decision = limited
      ? await limiter.check(isApi ? await rateLimitSubject(context, ip) : { kind: "ip", address: ip })
      : undefined;
    if (decision && !decision.allowed) return tooManyRequests(decision, isGraphQL);
    const transport = isGraphQL ? graphql : isApi ? rest : site;
    const answered = () => transport(request, context, url);
    const read = readKind(request.method, pathname, isGraphQL, isApi);
    const response =
      pathname === MCP_PATH
        ? await mcp(request, () => createContext(deps, request, ip, "snake_case", deadline))
        : read
          ? await validatedRead(read, request, context, url, caching[read], answered)
          : await answered();
    // Whether the answer was kept (src/schema/read-cache.ts): for operators, and for tests of the cache.
    if (context.answerCache) response.headers.set("x-cache", context.answerCache);
    return decision ? withBudget(response, decision) : response;
  }

  /** CMS_COUNT_QUERIES=1: the SQL statements the request made, in X-Query-Count (tests of batching). */
  async function counted(request: Request, url: URL, ip: string, deadline: Deadline): Promise<Response> {
    const { result, queries } = await countQueries(() => dispatch(request, url, ip, deadline));
    result.headers.set("x-query-count", String(queries));
    return result;
  }
  const answer = counting ? counted : dispatch;

  return createServerAdapter<{ req?: IncomingMessage }>(async (request, server) => {
    // Parsed once: the transports take it from here. The adapter builds it from the Host header, which
    // a client may send malformed (`h:99999`, `a, b`).
    const url = parsedUrl(request.url);
    if (!url) return json({ error: "Invalid Host header", details: [HOST_INVALID] }, 400);
    const { pathname } = url;
    if (pathname === "/healthz") {
      // Liveness: the process answers. Whether the database does is readiness, below.
      return json({ status: "ok" });
    }
    if (pathname === "/readyz") {
      const ready = await ping(database.db);
      return json({ status: ready ? "ready" : "unavailable" }, ready ? 200 : 503);
    }
    const deadline = new Deadline(Date.now() + config.requestTimeoutMs);
    // Each transport answers its own errors; what fails before one is reached (the token lookup the rate
    // limit makes, the limit's store) is logged and masked here, not left to the adapter, which would
    // send its stack as the body. Shaped as the rate limit's refusal is: REST's body, GraphQL's `errors` too.
    const answered = answer(request, url, clientIp(server.req, config.trustProxy), deadline).catch(
      (error: unknown) => errorResponse([error], pathname === GRAPHQL_PATH),
    );
    return withTimeout(config.requestTimeoutMs, deadline, answered);
  });
}

/** Reads answered under validators (src/http/validators.ts); asset files keep their own. */
function readKind(
  method: string,
  pathname: string,
  isGraphQL: boolean,
  isApi: boolean,
): ReadKind | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  if (isGraphQL) return "graphql";
  if (isApi) return "rest";
  return pathname.startsWith(ASSETS_PREFIX) ? undefined : "site";
}

const HOST_INVALID = { path: "host", message: "is not a valid host" };

/** Node 20 has no `URL.parse`. */
function parsedUrl(href: string): URL | undefined {
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
}

/**
 * The answer, or 503 once `ms` have passed: a stuck database or a client trickling its body cannot hold
 * a request open for ever. The work is cancelled too (db/deadline.ts): it sends no statement after the
 * deadline, so a write either commits before the 503 (which waits for a COMMIT already sent) or not at
 * all; an answer whose work was cut short that way is a 503 too.
 */
async function withTimeout(ms: number, deadline: Deadline, answer: Promise<Response>): Promise<Response> {
  const late = () => json({ error: `Request timed out after ${ms} ms`, details: [] }, 503);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Response>((resolve) => {
    timer = setTimeout(() => resolve(deadline.settled().then(late)), ms);
  });
  try {
    const response = await Promise.race([answer, timeout]);
    return deadline.refused ? late() : response;
  } finally {
    clearTimeout(timer);
  }
}
