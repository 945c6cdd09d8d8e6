// The REST interface: the public pages, the streamed export and the YAML import, then sofa-api's router
// (sofa.ts) for the route table: it matches the path and binds the arguments, and the route's operation
// answers (run-route.ts). Everything here is transport.
import type { GraphQLSchema } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { accountScope } from "../schema/access.ts";
import { ApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { docsPage, swaggerUiFiles } from "./docs.ts";
import { errorResponse } from "./errors.ts";
import { EXPORT_PATH, exportAnswer } from "./export.ts";
import { forwardedRequest } from "./forwarded-request.ts";
import { IMPORT_JOB_PATH, IMPORT_PATH, importAnswer, importJobAnswer } from "./import.ts";
import { keptAnswer } from "./kept-answers.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { refusedArgument } from "./refused-argument.ts";
import { createRestRouter, type RestCall, sofaRefusals } from "./sofa.ts";

export interface RestOptions {
  schema: GraphQLSchema;
  jsonBodyLimit: number;
}

export function createRestHandler({ schema, jsonBodyLimit }: RestOptions) {
  // Built once: the schema does not change while the server runs.
  const document = buildOpenApiDocument(schema);
  const publicPages: Record<string, { type: string; body: string }> = {
    "/v1/openapi.json": { type: "application/json; charset=utf-8", body: JSON.stringify(document) },
    "/v1/docs": { type: "text/html; charset=utf-8", body: docsPage(document) },
  };

  const router = createRestRouter(schema);

  /** Sofa's router matches the path and binds the arguments; the route's operation answers (run-route.ts). */
  async function serveRoute(call: RestCall, url: URL): Promise<Response> {
    const forwarded = forwardedRequest(call.request, url);
    call.forwarded = forwarded;
    const response = await router.fetch(forwarded, { rest: call });
    if (call.answer) return call.answer;
    if (call.bound) return response as Response;
    if (sofaRefusals.has(response)) {
      if (forwarded.method !== "GET") await accountScope(call.ctx, call.account, "write");
      const { params = {}, query = {} } = call.forwarded;
      throw new ApiError(422, "Validation failed", [refusedArgument(schema, params, query)]);
    }
    throw await noRoute(call.ctx, call.request, url);
  }

  return async function handleRest(request: Request, ctx: Context, url: URL): Promise<Response> {
    const page = publicPages[url.pathname];
    const readsPage = request.method === "GET" || request.method === "HEAD";
    if (page && readsPage) {
      // Node sends a HEAD answer's headers (Content-Length included) without its body.
      return new Response(page.body, {
        headers: { "content-type": page.type, "cache-control": "no-cache" },
      });
    }
    const swaggerUiFile = readsPage ? await swaggerUiFiles.serve(url.pathname) : undefined;
    if (swaggerUiFile) return swaggerUiFile;
    try {
      // Streamed, so outside the route table (sofa answers one JSON value): see export.ts.
      if (readsPage && EXPORT_PATH.test(url.pathname))
        return await exportAnswer(ctx, accountOf(url), request.method === "HEAD");
      // A YAML or .tar.gz body, so outside the route table too: see import.ts.
      if (request.method === "POST" && IMPORT_PATH.test(url.pathname))
        return await importAnswer(request, ctx, accountOf(url));
      const job = readsPage ? IMPORT_JOB_PATH.exec(url.pathname) : null;
      if (job) return await importJobAnswer(ctx, accountOf(url), job[2] as string);
      // Every routed path is an account's: who may call comes before what was sent (another account's
      // token gets 403 whatever its body or parameters), so before sofa binds the path and the query. A
      // write also needs a write token: checked once a route matched (run-route.ts, serveRoute), since
      // with a token an unknown path is a 404.
      if (!url.pathname.startsWith(ACCOUNT_PATHS)) throw await noRoute(ctx, request, url);
      const account = accountOf(url);
      await accountScope(ctx, account, "read");
      const call: RestCall = { ctx, request, account, jsonBodyLimit, bound: false };
      const routed = () => serveRoute(call, url);
      return await (readsPage ? keptAnswer(ctx, url, routed) : routed());
    } catch (error) {
      return errorResponse([error]);
    } finally {
      // A staged upload the operation did not commit is not kept.
      for (const staged of ctx.stagedUploads) await ctx.storage.discard(staged);
    }
  };
}

const ACCOUNT_PATHS = "/v1/accounts/";

/** No route for the method and path: 401 first, without a valid token. */
async function noRoute(ctx: Context, request: Request, url: URL): Promise<ApiError> {
  if (!(await ctx.viewer())) return new ApiError(401, "Missing or invalid bearer token");
  return new ApiError(404, `No route for ${request.method} ${url.pathname}`);
}

/** Every routed path starts /v1/accounts/:account_id. */
function accountOf(url: URL): string {
  const segment = url.pathname.split("/")[3] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
