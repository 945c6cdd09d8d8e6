// The OpenAPI 3.1 document of the REST interface, built once from the GraphQL schema and the route
// table: what sofa would describe, corrected to what the transport really does (the `/v1` server, PATCH
// beside PUT, bodies with top-level fields, blueprint values as extra keys, 201/204, the error body,
// bearer auth), and holding what the schema enforces on each value (openapi-rules.ts). Paths are routes.ts's
// paths under the server URL `/v1`.
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import { BLUEPRINT_PAGE_SIZE } from "../schema/blueprints/queries.ts";
import { PAGE_SIZE } from "../schema/pagination.ts";
import { inputType } from "./arguments.ts";
import { EXPORT_TAG, exportPaths } from "./export-openapi.ts";
import { IMPORT_TAG, importPaths } from "./import-openapi.ts";
import { int32, isChecked, withDeclaredRules, withValueSet } from "./openapi-rules.ts";
import { withValidators } from "./openapi-validators.ts";
import { describeRoute, summary, tagFor, tagNames } from "./openapi-words.ts";
import { type Route, routes } from "./routes.ts";

export type JsonSchema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    parameters?: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: Record<string, unknown>[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    | { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, Ref> }
    | Ref
  >;
}
interface Ref {
  $ref: string;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The error responses, each with the one error body of every failure. */
const errors = {
  400: [
    "BadRequest",
    "Malformed body: not JSON, not a JSON object, or an unreadable multipart body (path `body`).",
  ],
  401: ["Unauthorized", "Missing, invalid or revoked bearer token."],
  403: ["Forbidden", "The token belongs to another account, or is read-only and the operation writes."],
  404: ["NotFound", "No such resource in the account (or no such route)."],
  409: [
    "Conflict",
    "The resource is in use, owned elsewhere, or was changed by too many concurrent requests.",
  ],
  413: ["PayloadTooLarge", "The body is over the size limit (2 MB for JSON, the upload limit for assets)."],
  422: ["ValidationFailed", "Invalid input; each detail names the offending field in `path`."],
  429: [
    "TooManyRequests",
    "Over a rate limit: the token's `RATE_LIMIT_PER_MINUTE` (none by default), or without a valid token the client address's `RATE_LIMIT_ANONYMOUS_PER_MINUTE` (600 by default). Retry after `Retry-After` seconds.",
  ],
  503: [
    "ServiceUnavailable",
    "Not answered within `REQUEST_TIMEOUT_MS` (30 s by default); the work is cancelled: a write committed before this answer or not at all.",
  ],
} as const;
type ErrorStatus = keyof typeof errors;

/** Operations that may answer 409 (see the schema's mutations). */
const conflicts = new Set([
  "Mutation.entryCreate",
  "Mutation.entryUpdate",
  "Mutation.blueprintUpdate",
  "Mutation.blueprintDelete",
  "Mutation.templateDelete",
  "Mutation.globalUpdate",
  "Mutation.trashRestore",
]);

/** The JSON navigation item shapes (typed JSON in the schema, described here). */
const navigationSchemas: Record<string, JsonSchema> = {
  NavigationItemEntity: {
    type: "object",
    description: "The entry an item links to; `url` follows the entry's current path.",
    properties: {
      type: { type: "string", const: "CollectionEntry" },
      id: { type: "string" },
      handle: { type: "string" },
      title: { type: "string" },
      url: { type: "string" },
    },
    required: ["type", "id", "handle", "title", "url"],
    additionalProperties: false,
  },
  NavigationItem: {
    type: "object",
    description:
      "An item as the /items endpoints answer it: `entity` only on items linked to an entry, `children` only on items that have children (never in the flat `all=true` list).",
    properties: {
      id: { type: "string", description: "`ni_` prefix ID." },
      title: { type: "string" },
      url: { type: ["string", "null"], description: "Null on linked items: the page URL is `entity.url`." },
      collection_handle: {
        type: "string",
        description: "On linked items: the entry's collection, as writes name the link.",
      },
      entry_handle: { type: "string", description: "On linked items: the entry's handle." },
      priority: { type: "integer" },
      parent_id: { type: ["string", "null"], description: "Null for top-level items." },
      entity: ref("NavigationItemEntity"),
      created_at: { type: "string", format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
      children: { type: "array", items: ref("NavigationItem") },
    },
    required: ["id", "title", "url", "priority", "parent_id", "created_at", "updated_at"],
    additionalProperties: false,
  },
  NavigationTreeItem: {
    type: "object",
    description:
      "An item of the tree embedded in the single-navigation GET; `collection_handle` and `entry_handle` only on items linked to an entry.",
    properties: {
      id: { type: "string" },
      title: { type: "string" },
      url: { type: ["string", "null"], description: "Null on linked items." },
      collection_handle: {
        type: "string",
        description: "On linked items: the entry's collection, as writes name the link.",
      },
      entry_handle: { type: "string", description: "On linked items: the entry's handle." },
      priority: { type: "integer" },
      created_at: { type: "string", format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
      children: { type: "array", items: ref("NavigationTreeItem") },
    },
    required: ["id", "title", "url", "priority", "created_at", "updated_at"],
    additionalProperties: false,
  },
};

/** JSON-typed fields whose shape is known. */
const jsonFields: Record<string, JsonSchema> = {
  "BlueprintField.options": { type: "object", description: "Options of the field type." },
  "NavigationWithItems.items": { type: "array", items: ref("NavigationTreeItem") },
  "NavigationItemList.data": { type: "array", items: ref("NavigationItem") },
  "NavigationItemCreatePayload.item": ref("NavigationItem"),
  "Query.navigationItem": ref("NavigationItem"),
  "Mutation.navigationItemUpdate": ref("NavigationItem"),
};

const multipartUpload: JsonSchema = {
  type: "object",
  properties: {
    file: { type: "string", format: "binary", description: "The file; its part's filename names the asset." },
    path: { type: "string", description: "Folder path; omitted or empty for the root." },
    filename: { type: "string", description: "Overrides the file part's filename." },
    content_type: { type: "string", description: "Overrides the file part's Content-Type." },
  },
  required: ["file"],
};

export function buildOpenApiDocument(schema: GraphQLSchema): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  // Types whose `values` field is spread into top-level keys by the REST answer (entries, globals).
  const spread = new Set<string>();
  for (const route of routes) if (route.spreadValues) spread.add(recordType(schema, route).name);

  function component(type: GraphQLNamedType): void {
    if (schemas[type.name] !== undefined) return;
    schemas[type.name] = {};
    if (isEnumType(type)) {
      schemas[type.name] = describe({ type: "string", enum: type.getValues().map((v) => v.name) }, type);
    } else if (isObjectType(type)) {
      schemas[type.name] = objectSchema(type);
    } else if (isInputObjectType(type)) {
      schemas[type.name] = inputSchema(type);
    } else if (isUnionType(type)) {
      const members = type.getTypes().map((member) => {
        component(member);
        return ref(member.name);
      });
      schemas[type.name] = describe({ oneOf: members }, type);
    }
  }

  function objectSchema(type: GraphQLObjectType): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const spreads = spread.has(type.name);
    for (const field of Object.values(type.getFields())) {
      if (spreads && field.name === "values") continue;
      const key = `${type.name}.${field.name}`;
      const known = jsonFields[key];
      properties[field.name] = describe(withValueSet(known ?? typeSchema(field.type), key), field);
      // Every field is in every answer (sofa selects them all); nullable ones may be null.
      required.push(field.name);
    }
    return describe(
      {
        type: "object",
        properties,
        required,
        additionalProperties: spreads
          ? { description: "Blueprint values, one top-level key per field handle of the blueprint." }
          : false,
      },
      type,
    );
  }

  function inputSchema(type: GraphQLInputObjectType): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const fields = type.getFields();
    for (const field of Object.values(fields)) {
      // `values` is sent as top-level keys; `upload` is set by the transport from a multipart body.
      if (field.name === "values" || field.name === "upload") continue;
      const checked = withDeclaredRules(typeSchema(field.type, true, true), field);
      properties[field.name] = describe(withValueSet(checked, `${type.name}.${field.name}`), field);
      if (isNonNullType(field.type)) required.push(field.name);
    }
    // A JSON upload carries the bytes in `data` (the schema's `upload` alternative is multipart only).
    if ("upload" in fields && properties.data) {
      properties.data = { ...properties.data, type: "string" };
      required.push("data");
    }
    const result: JsonSchema = { type: "object", properties };
    if (required.length > 0) result.required = required;
    if ("values" in fields)
      result.additionalProperties = {
        description:
          "Blueprint values, one top-level key per field handle; null clears a value; unknown keys are dropped.",
      };
    return describe(result, type);
  }

  /** `input`: a value the client sends (dates may omit the time). */
  function typeSchema(type: GraphQLType, nullable = true, input = false): JsonSchema {
    if (isNonNullType(type)) return typeSchema(type.ofType, false, input);
    if (isListType(type))
      return orNull({ type: "array", items: typeSchema(type.ofType, true, input) }, nullable);
    const named = type as GraphQLNamedType;
    if (isScalarType(named)) {
      const base = scalar(named.name, input);
      return nullable && named.name !== "JSON" ? orNull(base, true) : base;
    }
    component(named);
    return orNull(ref(named.name), nullable);
  }

  /** The schema of a route's answer body. */
  function answerSchema(route: Route): JsonSchema {
    const field = rootField(schema, route);
    const known = jsonFields[route.field];
    if (known) return known;
    if (route.answer === "upsert" && route.record) {
      const payload = getNamedType(field.type) as GraphQLObjectType;
      const record = payload.getFields()[route.record];
      if (!record) throw new Error(`${route.field} has no ${route.record}`);
      return jsonFields[`${payload.name}.${route.record}`] ?? typeSchema(record.type);
    }
    return typeSchema(field.type);
  }

  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const field = rootField(schema, route);
    const operation = buildOperation(route, field);
    const item = paths[path] ?? {};
    paths[path] = item;
    item[route.method.toLowerCase()] = operation;
    if (route.method === "PUT") {
      item.patch = {
        ...operation,
        operationId: `${operation.operationId}Patch`,
        summary: `${operation.summary} (same as PUT)`,
      };
    }
  }

  function buildOperation(route: Route, field: GraphQLField<unknown, unknown>): Operation {
    const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
    const parameters: Record<string, unknown>[] = [];
    for (const name of pathNames) {
      const arg = field.args.find((candidate) => candidate.name === name);
      parameters.push(parameter(arg, name, "path"));
    }
    for (const arg of field.args) {
      if (pathNames.includes(arg.name) || arg.name === "input") continue;
      parameters.push(parameter(arg, arg.name, "query"));
    }

    const responses: Operation["responses"] = {};
    const body = { "application/json": { schema: answerSchema(route) } };
    if (route.answer === "deleted") responses[204] = { description: "Deleted; no body." };
    else if (route.answer === "upsert") {
      responses[201] = { description: "Created.", content: body };
      responses[200] = { description: "A record with this handle existed and was updated.", content: body };
    } else if (route.answer === "created") responses[201] = { description: "Created.", content: body };
    else responses[200] = { description: "OK.", content: body };

    const hasBody = route.method === "POST" || route.method === "PUT";
    // Every operation is counted by the rate limiter and bounded by the request timeout.
    const statuses: ErrorStatus[] = [401, 403, 429, 503];
    if (hasBody) statuses.unshift(400);
    if (pathNames.length > 1) statuses.push(404);
    if (conflicts.has(route.field)) statuses.push(409);
    if (hasBody) statuses.push(413);
    // A 422 answers a refused value: of a body's field, of a query parameter, of a checked path parameter.
    const checkedPath = field.args.some(
      (arg) => pathNames.includes(arg.name) && (getNamedType(arg.type).name === "Int" || isChecked(arg)),
    );
    if (inputType(schema, route) || parameters.some((p) => p.in === "query") || checkedPath)
      statuses.push(422);
    for (const status of statuses)
      responses[status] = { $ref: `#/components/responses/${errors[status][0]}` };

    const operation: Operation = {
      operationId: route.field.split(".")[1] as string,
      summary: summary(route),
      tags: [tagFor(route)],
      security: [{ bearerAuth: [] }],
      parameters,
      responses,
    };
    operation.description = field.description ?? describeRoute(route);
    if (hasBody) operation.requestBody = requestBody(route);
    return operation;
  }

  function requestBody(route: Route): NonNullable<Operation["requestBody"]> {
    const type = inputType(schema, route);
    if (!type) return { required: false, content: { "application/json": { schema: { type: "object" } } } };
    component(type);
    let json: JsonSchema = ref(type.name);
    if (route.wrapper) {
      json = {
        description: `The fields at the top level, or wrapped in \`${route.wrapper}\`.`,
        anyOf: [
          ref(type.name),
          { type: "object", properties: { [route.wrapper]: ref(type.name) }, required: [route.wrapper] },
        ],
      };
    }
    const content: NonNullable<Operation["requestBody"]>["content"] = {
      "application/json": { schema: json },
    };
    if (route.upload) content["multipart/form-data"] = { schema: multipartUpload };
    return { required: true, content };
  }

  function parameter(arg: GraphQLArgument | undefined, name: string, where: "path" | "query") {
    let argSchema = arg ? withDeclaredRules(typeSchema(arg.type, false, true), arg) : { type: "string" };
    if (name === "page") argSchema = { ...argSchema, default: 1 };
    return {
      name,
      in: where,
      required: where === "path",
      ...(arg?.description ? { description: arg.description } : {}),
      schema: argSchema,
    };
  }

  // Answered outside the route table (streamed): described on its own.
  Object.assign(paths, exportPaths, importPaths);
  Object.assign(schemas, navigationSchemas);
  schemas.Error = {
    type: "object",
    description: "Every error answer. Clients match on `details[].path`, not on `message` text.",
    properties: {
      error: { type: "string" },
      details: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: { type: "string" },
            message: { type: "string" },
            line: {
              type: "integer",
              minimum: 1,
              description: "In an import's problems: the line of the document the problem is on, when known.",
            },
          },
          required: ["path", "message"],
          additionalProperties: false,
        },
      },
    },
    required: ["error", "details"],
    additionalProperties: false,
  };
  const responses: Record<string, Record<string, unknown>> = Object.fromEntries(
    Object.values(errors).map(([name, description]) => [
      name,
      { description, content: { "application/json": { schema: ref("Error") } } },
    ]),
  );
  responses.TooManyRequests = {
    ...responses.TooManyRequests,
    headers: rateLimitHeaderRefs,
  };

  return withValidators({
    openapi: "3.1.0",
    info: {
      title: "Content Management Service",
      version: "1.0.0",
      description: `REST interface of the headless CMS. Every operation is scoped to the account in the path and needs \`Authorization: Bearer <token>\`. Lists return ${PAGE_SIZE} records a page (blueprints ${BLUEPRINT_PAGE_SIZE}).`,
    },
    servers: [{ url: "/v1", description: "Version 1" }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set([...tagNames, EXPORT_TAG, IMPORT_TAG])].map((name) => ({ name })),
    paths,
    components: {
      schemas: sortKeys(schemas),
      responses,
      headers: rateLimitHeaderSchemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An account API token (`cms_…`)." },
      },
    },
  });
}

/** The headers of a 429 (the RateLimit-* ones are also on every answer counted against a budget). */
const rateLimitHeaderSchemas = {
  "Retry-After": {
    description: "Seconds until the budget is renewed.",
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Limit": { description: "Requests allowed per minute.", schema: { type: "integer", minimum: 1 } },
  "RateLimit-Remaining": {
    description: "Requests left in the current minute.",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the current minute ends.",
    schema: { type: "integer", minimum: 1 },
  },
};

const rateLimitHeaderRefs = Object.fromEntries(
  Object.keys(rateLimitHeaderSchemas).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

function scalar(name: string, input: boolean): JsonSchema {
  switch (name) {
    case "String":
    case "ID":
      return { type: "string" };
    case "Int":
      return input ? { ...int32 } : { type: "integer" };
    case "Float":
      return { type: "number" };
    case "Boolean":
      return { type: "boolean" };
    case "DateTime":
      return input
        ? { type: "string", description: "ISO 8601 date or date-time; without an offset it is UTC." }
        : { type: "string", format: "date-time" };
    default:
      return {};
  }
}

function orNull(schema: JsonSchema, nullable: boolean): JsonSchema {
  if (!nullable) return schema;
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

function describe(schema: JsonSchema, source: { description?: string | null | undefined }): JsonSchema {
  if (!source.description || "$ref" in schema) return schema;
  const own = typeof schema.description === "string" ? ` ${schema.description}` : "";
  return { ...schema, description: `${source.description}${own}` };
}

function rootField(schema: GraphQLSchema, route: Route): GraphQLField<unknown, unknown> {
  const [kind, name = ""] = route.field.split(".");
  const root = kind === "Mutation" ? schema.getMutationType() : schema.getQueryType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`routes.ts names ${route.field}, which the schema lacks`);
  return field;
}

/** The record type a route answers with (a list's item type, a payload's record). */
function recordType(schema: GraphQLSchema, route: Route): GraphQLNamedType {
  let type = getNamedType(rootField(schema, route).type) as GraphQLNamedType;
  if (route.record && isObjectType(type))
    type = getNamedType(type.getFields()[route.record]?.type as GraphQLOutputType);
  if (isObjectType(type) && type.getFields().data && type.getFields().pagination)
    type = getNamedType(type.getFields().data?.type as GraphQLOutputType);
  return type;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
