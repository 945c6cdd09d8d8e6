// Shapes sofa's answer into the contract: 201 or 200 for create-by-handle, 204 for deletes, blueprint
// values as top-level keys.
import { Response } from "../http/fetch-api.ts";
import { json } from "./errors.ts";
import type { Route } from "./routes.ts";

export async function answer(route: Route, response: Response): Promise<Response> {
  if (!response.ok) return response;
  if (route.answer === "deleted") return new Response(null, { status: 204 });
  let body = (await response.json()) as Record<string, unknown>;
  let status = route.answer === "created" ? 201 : 200;
  if (route.answer === "upsert" && route.record) {
    status = body.created ? 201 : 200;
    body = body[route.record] as Record<string, unknown>;
  }
  return json(route.spreadValues ? spreadValues(body) : body, status);
}

/**
 * A record, a list envelope of records, or a payload holding its record in `record` (a trash restore), with
 * blueprint values as top-level keys (the tools answer so too).
 */
export function spreadValues(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body.data)) return { ...body, data: body.data.map(spread) };
  if (isRecord(body.record)) return { ...body, record: spread(body.record) };
  return spread(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{..., values: {a, b}}` -> `{..., a, b}`; the record's own keys win over values of the same name. */
function spread(record: Record<string, unknown>): Record<string, unknown> {
  const { values, ...own } = record;
  return { ...own, ...(values as Record<string, unknown>), ...own };
}
