// Shapes a route's value into the contract: 201 or 200 for create-by-handle, 204 for deletes, blueprint
// values as top-level keys. The one place a REST answer is serialized.
import { Response } from "../http/fetch-api.ts";
import { spreadValues } from "../schema/rest-shape.ts";
import { json } from "./errors.ts";
import type { Route } from "./routes.ts";

export function answer(route: Route, value: unknown): Response {
  if (route.answer === "deleted") return new Response(null, { status: 204 });
  let body = value as Record<string, unknown>;
  let status = route.answer === "created" ? 201 : 200;
  if (route.answer === "upsert" && route.record) {
    status = body.created ? 201 : 200;
    body = body[route.record] as Record<string, unknown>;
  }
  return json(route.spreadValues ? spreadValues(body) : body, status);
}
