// Every REST error body is { error, details: [{path, message}] } (content-api.md, "Errors"); internal
// errors are logged and masked.
import { Response } from "../http/fetch-api.ts";
import { publicError } from "../http/public-error.ts";
import { ApiError } from "../schema/errors.ts";

/** `graphql`: a GraphQL client's `errors` too, for an answer made before /graphql was reached (src/app.ts). */
export function errorResponse(errors: readonly unknown[], graphql = false): Response {
  const apiErrors = errors.map((error) => publicError(error));
  const status = Math.max(...apiErrors.map((error) => error.status));
  const chosen = apiErrors.filter((error) => error.status === status);
  const first = chosen[0] ?? new ApiError(500, "Internal server error");
  const body = { error: first.message, details: chosen.flatMap((error) => error.details) };
  // Retry-After, when the database is out of reach.
  const headers = first.headers;
  if (!graphql) return json(body, status, headers);
  const extensions = { code: first.extensions.code, details: body.details };
  return json({ ...body, errors: [{ message: first.message, extensions }] }, status, headers);
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
