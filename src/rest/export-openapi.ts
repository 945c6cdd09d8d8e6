// The OpenAPI description of GET /accounts/{account_id}/export.yaml, which is outside the route table
// (export.ts says why) and so outside what openapi.ts derives from it.
import type { Operation } from "./openapi.ts";

export const EXPORT_TAG = "Export";

const exportOperation: Operation = {
  operationId: "exportSite",
  summary: "Export the whole site as one YAML document",
  description:
    "The account's collections (with their blueprints), standalone blueprints, templates, asset metadata (with SHA-256 checksums), every entry (published or not), navigations with their item trees, forms (with notification settings) and globals, as one YAML document streamed as it is read. References are written by handle and path, never by ID, so the document is portable between accounts and servers. It starts with `format: cms-site/1` and ends with `complete: true`: a document without that last line was cut short. A read-scoped token may export.",
  tags: [EXPORT_TAG],
  security: [{ bearerAuth: [] }],
  parameters: [{ name: "account_id", in: "path", required: true, schema: { type: "string" } }],
  responses: {
    200: {
      description: "The document (`application/yaml; charset=utf-8`), sent as it is produced.",
      content: { "application/yaml": { schema: { type: "string" } } },
    },
    401: { $ref: "#/components/responses/Unauthorized" },
    403: { $ref: "#/components/responses/Forbidden" },
    429: { $ref: "#/components/responses/TooManyRequests" },
    503: { $ref: "#/components/responses/ServiceUnavailable" },
  },
};

/** Paths below the `/v1` server URL, as openapi.ts writes route paths. */
export const exportPaths: Record<string, Record<string, Operation>> = {
  "/accounts/{account_id}/export.yaml": { get: exportOperation },
};
