// Reading a REST body (decisions.md: 2 MB; 413 past it, 400 when it is not JSON, not an object or nested
// too deep, 422 on a string that is no Unicode text). The parsed value goes to the schema as it is: a
// number past the double range (`1e999`, parsed as Infinity) reaches the schema, which refuses it.
import { readJsonBody } from "../http/json-body.ts";
import { ApiError } from "../schema/errors.ts";

export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, limit);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  return body as Record<string, unknown>;
}
