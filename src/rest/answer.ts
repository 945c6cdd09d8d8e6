// Shapes sofa's answer into the contract: 201 or 200 for create-by-handle, 204 for deletes, blueprint
// values as top-level keys.
import { Response } from "../http/fetch-api.ts";
import { spreadValues } from "../schema/rest-shape.ts";
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
