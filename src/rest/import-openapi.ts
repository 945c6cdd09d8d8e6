// The OpenAPI description of POST /accounts/{account_id}/import, which is outside the route table
// (import.ts says why) and so outside what openapi.ts derives from it.
import { sizeText } from "../schema/assets/limits.ts";
import {
  IMPORT_ARCHIVE_LIMIT,
  IMPORT_ASYNC_BYTES,
  IMPORT_DOCUMENT_LIMIT,
  IMPORT_FILES_LIMIT,
  IMPORT_INFLATED_LIMIT,
} from "../schema/import/limits.ts";
import type { Operation } from "./openapi.ts";

export const IMPORT_TAG = "Import";

const document = sizeText(IMPORT_DOCUMENT_LIMIT);
const archive = sizeText(IMPORT_ARCHIVE_LIMIT);
const inflated = sizeText(IMPORT_INFLATED_LIMIT);
const files = IMPORT_FILES_LIMIT.toLocaleString("en-US");

const counts = {
  type: "object",
  description:
    "Records by type: collections, blueprints, templates, assets, entries, navigations, forms, globals.",
  additionalProperties: { type: "integer" },
};

const jobSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    status: { type: "string", enum: ["running", "succeeded", "failed"] },
    dry_run: { type: "boolean" },
    phase: { type: "string", enum: ["reading", "checking", "writing"] },
    progress: {
      type: "object",
      properties: { done: { type: "integer" }, total: { type: "integer" } },
      description: "Entries checked (then written) so far, of total.",
    },
    report: {
      type: ["object", "null"],
      description: "Once succeeded: the import's report (as the 200's body).",
    },
    error: {
      type: ["object", "null"],
      description: "Once failed: the synchronous answer's `status`, `error` and `details`.",
    },
    created_at: { type: "string", format: "date-time" },
    updated_at: { type: "string", format: "date-time" },
    finished_at: { type: ["string", "null"], format: "date-time" },
  },
  required: [
    "id",
    "status",
    "dry_run",
    "phase",
    "progress",
    "report",
    "error",
    "created_at",
    "updated_at",
    "finished_at",
  ],
};

const jobOperation: Operation = {
  operationId: "getImportJob",
  summary: "Read an import job (an import answered 202)",
  description:
    "The job's status, phase and progress while it runs; once it ended, its report (succeeded) or the error the synchronous answer would have been (failed). A read token may ask.",
  tags: [IMPORT_TAG],
  security: [{ bearerAuth: [] }],
  parameters: [
    { name: "account_id", in: "path", required: true, schema: { type: "string" } },
    { name: "id", in: "path", required: true, schema: { type: "string" } },
  ],
  responses: {
    200: { description: "The job.", content: { "application/json": { schema: jobSchema } } },
    401: { $ref: "#/components/responses/Unauthorized" },
    403: { $ref: "#/components/responses/Forbidden" },
    404: { $ref: "#/components/responses/NotFound" },
    429: { $ref: "#/components/responses/TooManyRequests" },
    503: { $ref: "#/components/responses/ServiceUnavailable" },
  },
};

const importOperation: Operation = {
  operationId: "importSite",
  summary: "Import a whole site (YAML document or .tar.gz)",
  description:
    "Imports a `cms-site/1` document as GET /export.yaml writes it (or the hosted service's export.yaml) into the account: records are created or updated by handle, in dependency order, all or nothing. The whole file is checked first (every record by the rules of its own create operation, every reference by handle); with any problem the answer is a 422 whose details list each one (`path` in the document, `line` when known) and nothing is written. Importing the same file twice changes nothing the second time. " +
    `The body is the YAML document (\`application/yaml\` or \`text/yaml\`, at most ${document}), or a .tar.gz as \`cms export --out FILE.tar.gz\` writes it (\`site.yaml\` and \`assets/<folder>/<filename>\`) sent as the multipart part \`file\` or as an \`application/gzip\` body: at most ${archive} as sent; once inflated, its \`site.yaml\` at most ${document}, each asset file at most the upload limit (\`CMS_UPLOAD_LIMIT\`), the whole at most ${inflated} and the asset files at most ${files} in number (413 naming the member past its limit, or \`file\`). ` +
    "A YAML import brings no asset bytes: assets the account lacks are then skipped (and said to be); in a .tar.gz every asset's bytes must be there (422 naming the asset otherwise). `?dry_run=true` checks and reports what would happen, writing nothing. " +
    `A body larger than ${sizeText(IMPORT_ASYNC_BYTES)}, or any sent with \`Prefer: respond-async\`, is answered 202 with a job (\`Location\`: GET /accounts/{account_id}/import/jobs/{id}), which ends with the same report or error. A document too complex to read within the import's limits (time and memory by its size), or holding a mapping of more than 10,000 keys, is a 422.`,
  tags: [IMPORT_TAG],
  security: [{ bearerAuth: [] }],
  parameters: [
    { name: "account_id", in: "path", required: true, schema: { type: "string" } },
    {
      name: "dry_run",
      in: "query",
      required: false,
      description: "Check and report only: nothing is written.",
      schema: { type: "boolean" },
    },
  ],
  requestBody: {
    required: true,
    content: {
      "application/yaml": { schema: { type: "string" } },
      "text/yaml": { schema: { type: "string" } },
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: { file: { type: "string", format: "binary", description: "The .tar.gz." } },
          required: ["file"],
        },
      },
      "application/gzip": { schema: { type: "string", format: "binary" } },
    },
  },
  responses: {
    200: {
      description:
        "The import's report: what was (or with dry_run would be) created, updated and left alone.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              dry_run: { type: "boolean" },
              created: counts,
              updated: counts,
              unchanged: counts,
              skipped: {
                type: "array",
                items: { type: "string" },
                description: "Parts of the file not imported, and why.",
              },
              problems: {
                type: "array",
                items: { type: "object" },
                description: "Always empty: problems are a 422.",
              },
            },
            required: ["dry_run", "created", "updated", "unchanged", "skipped", "problems"],
          },
        },
      },
    },
    202: {
      description:
        "A job: the import goes on after the answer (GET /accounts/{account_id}/import/jobs/{id}).",
      content: { "application/json": { schema: jobSchema } },
    },
    400: { $ref: "#/components/responses/BadRequest" },
    401: { $ref: "#/components/responses/Unauthorized" },
    403: { $ref: "#/components/responses/Forbidden" },
    409: { $ref: "#/components/responses/Conflict" },
    413: { $ref: "#/components/responses/PayloadTooLarge" },
    415: {
      description: "The body is neither YAML, multipart/form-data nor application/gzip.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    },
    422: { $ref: "#/components/responses/ValidationFailed" },
    429: { $ref: "#/components/responses/TooManyRequests" },
    503: { $ref: "#/components/responses/ServiceUnavailable" },
  },
};

/** Paths below the `/v1` server URL, as openapi.ts writes route paths. */
export const importPaths: Record<string, Record<string, Operation>> = {
  "/accounts/{account_id}/import": { post: importOperation },
  "/accounts/{account_id}/import/jobs/{id}": { get: jobOperation },
};
