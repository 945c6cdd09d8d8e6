// The REST interface: parse -> the schema's operation (run-route.ts) -> answer. Everything here is transport:
// matching the contract's paths, reading the body, shaping the answer.
import type { GraphQLSchema } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { writtenResource } from "../http/validators.ts";
import { accountScope } from "../schema/access.ts";
import { ApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { assertCurrent } from "../schema/validators/index.ts";
import { answer } from "./answer.ts";
import { bodyToInput, inputType, invalidQueryParameter } from "./arguments.ts";
import { readJsonObject } from "./body.ts";
import { docsPage, swaggerUiFiles } from "./docs.ts";
import { errorResponse } from "./errors.ts";
import { EXPORT_PATH, exportAnswer } from "./export.ts";
import { IMPORT_JOB_PATH, IMPORT_PATH, importAnswer, importJobAnswer } from "./import.ts";
import { keptAnswer } from "./kept-answers.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { matchRoute, type Route } from "./routes.ts";
import { runRoute } from "./run-route.ts";
import { ENVELOPE, isMultipart, readMultipartUpload } from "./upload.ts";

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
      const match = matchRoute(request.method, url.pathname.slice("/v1".length));
      if (!match) {
        if (!(await ctx.viewer())) throw new ApiError(401, "Missing or invalid bearer token");
        throw new ApiError(404, `No route for ${request.method} ${url.pathname}`);
      }
      const { route } = match;
      // Who may call comes before what was sent: another account's token gets 403 whatever its body.
      await accountScope(ctx, accountOf(url), route.method === "GET" ? "read" : "write");
      const badParameter = invalidQueryParameter(schema, route, url);
      if (badParameter) throw new ApiError(422, "Validation failed", [badParameter]);
      // Optimistic concurrency: a stale If-Match is refused before anything is read or written.
      if (route.method === "PUT" || route.method === "DELETE")
        await assertCurrent(ctx, request.headers.get("if-match"), writtenResource(url));
      let input: Record<string, unknown> | undefined;
      if (route.method !== "GET" && route.method !== "DELETE") {
        const body = await readBody(request, route, ctx, jsonBodyLimit);
        const type = inputType(schema, route);
        input = type && bodyToInput(type, body);
      }
      const answered = async () => {
        const result = await runRoute(schema, match, url, input, ctx);
        if (result.errors) return errorResponse(result.errors);
        return answer(route, result.data?.[route.field.slice(route.field.indexOf(".") + 1)]);
      };
      return await (route.method === "GET" ? keptAnswer(ctx, url, answered) : answered());
    } catch (error) {
      return errorResponse([error]);
    } finally {
      // A staged upload the operation did not commit is not kept.
      for (const staged of ctx.stagedUploads) await ctx.storage.discard(staged);
    }
  };
}

/**
 * The request's fields: the JSON object (unwrapped), or for upload routes a multipart body, whose file is
 * staged and named by `upload`. JSON uploads may be as large as the upload limit (base64 counted).
 */
async function readBody(
  request: Request,
  route: Route,
  ctx: Context,
  jsonBodyLimit: number,
): Promise<Record<string, unknown>> {
  if (route.upload && isMultipart(request)) {
    const upload = await readMultipartUpload(request, ctx.storage, ctx.uploadLimit);
    ctx.stagedUploads.add(upload.staged);
    return { ...upload.input, upload: upload.staged };
  }
  if (!route.upload) return unwrap(await readJsonObject(request, jsonBodyLimit), route.wrapper);
  const limit = Math.max(jsonBodyLimit, ctx.uploadLimit + ENVELOPE);
  // `upload` names a staged multipart file: never something a JSON body can say.
  const { upload: _multipartOnly, ...body } = unwrap(await readJsonObject(request, limit), route.wrapper);
  return body;
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

/** `{ template: {...} }` and the bare fields are both accepted. */
function unwrap(body: Record<string, unknown>, wrapper: string | undefined): Record<string, unknown> {
  const inner = wrapper ? body[wrapper] : undefined;
  return typeof inner === "object" && inner !== null && !Array.isArray(inner)
    ? (inner as Record<string, unknown>)
    : body;
}
