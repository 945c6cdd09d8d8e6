// The HTTP validators in the OpenAPI document (docs/api-notes.md, "Caching and validators"), added to the
// operations built from the routes: If-None-Match, ETag, Cache-Control and 304 on each GET; If-Match and
// 412 on each PUT, PATCH and DELETE. Derived from the built paths, so a new route is covered unasked.
import type { JsonSchema, OpenApiDocument, Operation } from "./openapi.ts";

/** Answers that keep their own caching: the export is streamed and never kept (`no-store`). */
const ownCaching = new Set(["exportSite"]);
const writes = new Set(["put", "patch", "delete"]);

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const headers = {
  ETag: {
    description:
      "A strong tag of this answer: it changes whenever the account's data changes (any of it), and differs between tokens, paths and query strings. Absent while an import job runs (its progress changes without a write).",
    schema: { type: "string", pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  "Cache-Control": {
    description: "`private, no-cache`: the caller's own answer, revalidated (If-None-Match) before each use.",
    schema: { type: "string", const: "private, no-cache" },
  },
};

const parameters = {
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "ETags of answers the client holds (weak comparison, a list, or `*`): one that is still current answers 304 with no body, before the read runs.",
    schema: { type: "string" },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description:
      "Optimistic concurrency: the write goes ahead only if the ETag a GET of this path (without a query string) answers now is one of these (strong comparison; `*`: any). Any write to the account since that GET makes it stale: 412, and nothing changes.",
    schema: { type: "string" },
  },
};

const responses = {
  NotModified: {
    description: "The If-None-Match tag is current: the answer the client holds is still this one. No body.",
    headers: { ETag: header("ETag"), "Cache-Control": header("Cache-Control") },
  },
  PreconditionFailed: {
    description:
      "The If-Match tag is stale: the resource or its account changed since it was read (details path `if_match`). Nothing was changed; read it again.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } as JsonSchema } },
  },
};

/** `document` with the validators of each operation, and their parts in its components. */
export function withValidators(document: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (ownCaching.has(operation.operationId)) continue;
      if (method === "get") item[method] = validatedRead(operation);
      else if (writes.has(method)) item[method] = conditionalWrite(operation);
    }
  }
  const { components } = document;
  Object.assign(components.headers, headers);
  components.parameters = { ...components.parameters, ...parameters };
  Object.assign(components.responses, responses);
  return document;
}

/** New objects: the operations outside the route table (export, import) are shared constants. */
function validatedRead(operation: Operation): Operation {
  const ok = operation.responses[200];
  const tagged = ok && !("$ref" in ok) ? { ...ok, headers: responses.NotModified.headers } : ok;
  return {
    ...operation,
    parameters: [...operation.parameters, parameterRef("IfNoneMatch")],
    responses: { ...operation.responses, ...(tagged && { 200: tagged }), 304: responseRef("NotModified") },
  };
}

function conditionalWrite(operation: Operation): Operation {
  return {
    ...operation,
    parameters: [...operation.parameters, parameterRef("IfMatch")],
    responses: { ...operation.responses, 412: responseRef("PreconditionFailed") },
  };
}
