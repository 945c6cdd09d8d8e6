// The HTTP status of a GraphQL answer, by the media type it is sent as (the GraphQL over HTTP
// specification, "Status Codes"). An operation that ran answers 200 in `application/json`, whatever its
// field errors: a client cannot tell a 4xx of the server from one of a proxy in that type. In
// `application/graphql-response+json` an answer with data answers 200 too; one whose data is null because
// of its error (a record not found, another account's, an input refused) keeps that error's 403, 404, 409
// or 422. Requests that never ran (no `data`) keep their 4xx in both types where this server decided so
// (a missing token's 401, a limit's 400: SECURITY.md); its refused variables answer 400 in
// `application/graphql-response+json` and 200 in `application/json`, as graphql-yoga answers an invalid
// document. A request that names neither type (no Accept, `*/*`) is answered in
// `application/graphql-response+json`, as the specification's legacy watershed asks since 2025.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

interface HttpExtension {
  status?: number;
  spec?: boolean;
  headers?: Record<string, string>;
}

/**
 * graphql-yoga sends an error's `extensions.http.status` in both types, unless the error is marked as the
 * specification's (`spec`), which it leaves out of an `application/json` answer's status.
 */
export const fieldErrorStatus: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || !("errors" in result) || !result.errors?.length) return;
    if (!("data" in result)) return;
    const keepFor4xxClients = result.data === null;
    setResult({
      ...result,
      errors: result.errors.map((error) => withStatus(error, keepFor4xxClients)),
    });
  },
};

/** `spec`: the status is kept for clients that accept `application/graphql-response+json` only. */
export function withStatus(error: GraphQLError, spec: boolean): GraphQLError {
  const { http, ...extensions } = error.extensions as { http?: HttpExtension };
  if (!http?.status) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: spec
      ? { ...extensions, http: { ...http, spec: true } }
      : http.headers
        ? { ...extensions, http: { headers: http.headers } }
        : extensions,
  });
}

const namesAType = /(^|,)\s*application\/(json|graphql-response\+json)\s*(;|,|$)/i;
const wildcard = /(^|,)\s*(\*\/\*|application\/\*)\s*(;|,|$)/;

/**
 * graphql-yoga answers the first of the two types the Accept header lists, and `application/json` to one
 * that lists neither but a wildcard: such a header, or none, is completed so that the request gets the
 * newer type. One that allows neither type is left as sent (a 406).
 */
export function preferGraphQLResponse(headers: Headers): void {
  const accept = headers.get("accept")?.trim();
  if (!accept) headers.set("accept", "application/graphql-response+json");
  else if (!namesAType.test(accept) && wildcard.test(accept))
    headers.set("accept", `application/graphql-response+json, ${accept}`);
}
