// Reading a REST body (decisions.md: 2 MB; 413 past it, 400 when it is not JSON, not an object or nested
// too deep, 422 on a string that is no Unicode text). The parsed value goes to the schema as it is: a
// number past the double range (`1e999`, parsed as Infinity) reaches the schema, which refuses it.
import { readJsonBody } from "../http/json-body.ts";
import { ApiError } from "../schema/errors.ts";
import type { Route } from "./routes.ts";
import type { RestCall } from "./sofa.ts";
import { ENVELOPE, isMultipart, readMultipartUpload } from "./upload.ts";

export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, limit);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  return body as Record<string, unknown>;
}

/**
 * The request's fields: the JSON object (unwrapped), or for upload routes a multipart body, whose file is
 * staged and named by `upload`. JSON uploads may be as large as the upload limit (base64 counted).
 */
export async function readBody(
  { request, ctx, jsonBodyLimit }: RestCall,
  route: Route,
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

/** `{ template: {...} }` and the bare fields are both accepted. */
function unwrap(body: Record<string, unknown>, wrapper: string | undefined): Record<string, unknown> {
  const inner = wrapper ? body[wrapper] : undefined;
  return typeof inner === "object" && inner !== null && !Array.isArray(inner)
    ? (inner as Record<string, unknown>)
    : body;
}
