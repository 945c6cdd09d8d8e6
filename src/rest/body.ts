// Reading a REST body (decisions.md: 2 MB; 413 past it, 400 when it is not JSON, not an object or nested
// too deep, 422 on a string that is no Unicode text), and forwarding it to the schema as sent.
import { randomUUID } from "node:crypto";
import { readJsonBody } from "../http/json-body.ts";
import { ApiError } from "../schema/errors.ts";

export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, limit);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  return body as Record<string, unknown>;
}

/**
 * The body as JSON text for the schema, as sent: JSON.stringify would write a number past the double
 * range (`1e999`, parsed as Infinity) as null, turning a bad value into "clear this value"; here it is
 * written back as `1e999` so that the schema sees, and refuses, what the client sent.
 */
export function forwardedJson(value: unknown): string {
  const marker = `\u0000${randomUUID()}`;
  const text = JSON.stringify(value, (_key, item) =>
    item === Infinity ? `${marker}+` : item === -Infinity ? `${marker}-` : item,
  );
  return text
    .replaceAll(JSON.stringify(`${marker}+`), "1e999")
    .replaceAll(JSON.stringify(`${marker}-`), "-1e999");
}
