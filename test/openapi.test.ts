// The OpenAPI document at /v1/openapi.json (decisions.md "Running the service"): a valid OpenAPI 3
// document covering every route of the contract, and accurate: real requests and answers, through the
// real server, match the request and response schemas it documents for their path, method and status.
// Every operation of the document is driven through its success and its client errors (400, 401, 403,
// 404, 413, 422 wherever it documents them), each answer validated against the document: an operation
// left out, or a status the document promises and the server never gives (or the reverse), fails.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPaths } from "../src/rest/export-openapi.ts";
import { importPaths } from "../src/rest/import-openapi.ts";
import { routes } from "../src/rest/routes.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { rawExchange, startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;
let doc: any;
let ajv: Ajv2020;

/** The statuses each operation (`get /path`) was seen answering, and the parameters and body of its success. */
const exercised = new Map<string, Set<number>>();
const succeeded = new Map<string, { params: Record<string, string>; body?: unknown; query?: string }>();
const operationKey = (method: string, path: string) => `${method} ${path}`;

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Compiles the schema at a JSON pointer of the document (its `$ref`s resolve inside the document). */
function schemaAt(path: string): ValidateFunction {
  return ajv.compile({ $ref: `openapi.json#/${path}` });
}

function expectValid(validate: ValidateFunction, value: unknown, what: string): void {
  const valid = validate(value);
  expect(valid, `${what}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

/**
 * Sends a request to a documented operation and checks both sides against the document: the JSON body
 * against its request schema, the answer against the response documented for the status it got.
 */
async function call(
  method: "get" | "post" | "put" | "patch" | "delete",
  path: string,
  params: Record<string, string> = {},
  body?: unknown,
  options: {
    token?: string | null;
    query?: string;
    raw?: string;
    type?: string;
    unchecked?: boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
  // Error probes send what the document refuses on purpose.
  if (body !== undefined && options.raw === undefined && !options.unchecked) {
    expect(operation.requestBody?.content?.["application/json"], "a JSON body is documented").toBeDefined();
    expectValid(
      schemaAt(pointer("paths", path, method, "requestBody", "content", "application/json", "schema")),
      body,
      `request of ${method} ${path}`,
    );
  }
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(name === "account_id" ? client.account.account_id : (params[name] ?? "")),
  );
  const token = options.token === undefined ? client.account.token : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined || options.raw !== undefined)
    headers["content-type"] = options.type ?? "application/json";
  const response = await request(`${server.url}${doc.servers[0].url}${concrete}${options.query ?? ""}`, {
    method: method.toUpperCase(),
    headers,
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  checkResponse(method, path, response);
  if (response.status < 300 && !options.raw && !options.unchecked && options.token === undefined)
    succeeded.set(operationKey(method, path), { params, body, query: options.query });
  return response;
}

function checkResponse(method: string, path: string, response: ApiResponse): void {
  const documented = doc.paths[path][method].responses[String(response.status)];
  expect(documented, `${method} ${path} documents status ${response.status}: ${response.text}`).toBeDefined();
  const seen = exercised.get(operationKey(method, path)) ?? new Set<number>();
  exercised.set(operationKey(method, path), seen.add(response.status));
  let location = pointer("paths", path, method, "responses", String(response.status));
  let resolved = documented;
  if (documented.$ref) {
    location = documented.$ref.slice(2);
    resolved = doc.components.responses[documented.$ref.split("/").pop()];
  }
  if (!resolved.content) {
    expect(response.text, `${response.status} has no body`).toBe("");
    return;
  }
  const type = response.headers.get("content-type")?.split(";")[0] ?? "";
  expect(Object.keys(resolved.content), `${method} ${path} ${response.status}`).toContain(type);
  if (type !== "application/json") return;
  expectValid(
    schemaAt(`${location}/${pointer("content", "application/json", "schema")}`),
    response.body,
    `${response.status} of ${method} ${path}`,
  );
}

const A = "/accounts/{account_id}";

beforeAll(async () => {
  // A small upload limit: a JSON upload past the 2 MB of other bodies is then a 413 too.
  server = await startServer({ CMS_UPLOAD_LIMIT: "100000" });
  client = api(server, await createAccount(server));
  const response = await fetch(`${server.url}/v1/openapi.json`);
  expect(response.status).toBe(200);
  doc = await response.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(doc, "openapi.json");
});

afterAll(async () => {
  await server?.stop();
});

describe("the document", () => {
  it("is served without a token and is a valid OpenAPI 3 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/v1" })]);
  });

  it("covers every route of the contract, PATCH wherever PUT is, each with bearer auth", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      const methods = route.method === "PUT" ? ["put", "patch"] : [route.method.toLowerCase()];
      for (const method of methods) {
        const operation = doc.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        for (const name of path.match(/\{\w+\}/g) ?? [])
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({ name: name.slice(1, -1), in: "path", required: true }),
          );
        expect(operation.responses[401]).toBeDefined();
        expect(operation.responses[403]).toBeDefined();
        if (route.answer === "deleted")
          expect(operation.responses[204]).toEqual({ description: expect.any(String) });
        if (route.answer === "created" || route.answer === "upsert")
          expect(operation.responses[201]).toBeDefined();
        if (route.answer === "upsert") expect(operation.responses[200]).toBeDefined();
      }
    }
    const count = Object.values(doc.paths).reduce(
      (n: number, item) => n + Object.keys(item as object).length,
      0,
    );
    // Plus the streamed export and the import, answered outside the route table.
    const streamed = Object.keys(exportPaths).length + Object.keys(importPaths).length;
    expect(count).toBe(routes.length + routes.filter((route) => route.method === "PUT").length + streamed);
  });

  it("documents the query parameters, and bodies with top-level fields (no `input` wrapper)", () => {
    const names = (path: string) =>
      doc.paths[path].get.parameters
        .filter((p: { in: string }) => p.in === "query")
        .map((p: { name: string }) => p.name);
    expect(names(`${A}/collections`)).toEqual(["handle", "page"]);
    expect(names(`${A}/collections/{collection_id}/entries`).sort()).toEqual(["handle", "page", "published"]);
    expect(names(`${A}/navigations/{navigation_id}/items`).sort()).toEqual(["all", "page"]);
    expect(JSON.stringify(doc)).not.toMatch(/"input"/);
    const create = doc.components.schemas.CollectionCreateInput;
    expect(create.required).toEqual(expect.arrayContaining(["name", "handle", "routing"]));
    expect(doc.components.schemas.EntryCreateInput.additionalProperties).toBeTruthy();
    expect(doc.components.schemas.Entry.additionalProperties).toBeTruthy();
    const upload = doc.paths[`${A}/assets`].post.requestBody.content["multipart/form-data"].schema;
    expect(upload.required).toEqual(["file"]);
    expect(Object.keys(upload.properties)).toEqual(expect.arrayContaining(["file", "path"]));
  });

  it("documents the error body", () => {
    expect(doc.components.schemas.Error).toMatchObject({ required: ["error", "details"] });
    for (const status of [400, 401, 403, 404, 409, 413, 422]) {
      const uses = Object.values(doc.paths).flatMap((item) =>
        Object.values(item as Record<string, { responses: Record<string, unknown> }>).filter(
          (operation) => operation.responses[status],
        ),
      );
      expect(uses.length, `some operation answers ${status}`).toBeGreaterThan(0);
    }
  });

  it("documents 429 (Retry-After, RateLimit-*) and 503 on every operation: each is counted and timed", () => {
    const tooMany = doc.components.responses.TooManyRequests;
    expect(tooMany.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    for (const name of ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
      expect(tooMany.headers[name]).toEqual({ $ref: `#/components/headers/${name}` });
      expect(doc.components.headers[name].schema).toMatchObject({ type: "integer" });
    }
    expect(doc.components.responses.ServiceUnavailable.description).toMatch(/REQUEST_TIMEOUT_MS/);
    expect(doc.components.responses.ServiceUnavailable.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        operations++;
        expect(operation.responses[429], `${method} ${path}`).toEqual({
          $ref: "#/components/responses/TooManyRequests",
        });
        expect(operation.responses[503], `${method} ${path}`).toEqual({
          $ref: "#/components/responses/ServiceUnavailable",
        });
      }
    expect(operations).toBeGreaterThan(40);
  });

  it("says what the server enforces: bounds, value sets, one tag each, descriptions, an import's line", () => {
    const schemas = doc.components.schemas;
    expect(schemas.CollectionCreateInput.properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.InlineBlueprintInput.properties.title).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.CollectionCreateInput.properties.handle).toMatchObject({
      minLength: 1,
      pattern: expect.any(String),
    });
    // GraphQL's Int is 32-bit; a field's own rule narrows it.
    const int32 = { type: ["integer", "null"], minimum: -2147483648, maximum: 2147483647 };
    expect(schemas.BlueprintFieldInput.properties.position).toMatchObject(int32);
    expect(schemas.NavigationItemCreateInput.properties.priority).toMatchObject({
      minimum: -1e9,
      maximum: 1e9,
    });
    const page = (path: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === "page");
    expect(page(`${A}/collections`).schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
    });
    const revision = doc.paths[`${A}/templates/{id}/revisions/{revision}`].get;
    expect(revision.parameters.find((p: { name: string }) => p.name === "revision").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 2147483647,
    });
    expect(revision.responses[422]).toEqual({ $ref: "#/components/responses/ValidationFailed" });
    // The values the schema checks in code.
    expect(schemas.BlueprintFieldInput.properties.type.enum).toEqual(
      expect.arrayContaining(["text", "rich_text", "entity", "dictionary"]),
    );
    expect(schemas.BlueprintFieldInput.properties.type.enum).toHaveLength(14);
    expect(schemas.BlueprintField.properties.type.enum).toEqual(
      schemas.BlueprintFieldInput.properties.type.enum,
    );
    expect(schemas.WebhookDelivery.properties.status.enum).toEqual(["pending", "delivered", "failed"]);
    const deliveries = doc.paths[`${A}/webhooks/{id}/deliveries`].get.parameters;
    expect(deliveries.find((p: { name: string }) => p.name === "status").schema.enum).toEqual([
      "pending",
      "delivered",
      "failed",
    ]);
    expect(schemas.Error.properties.details.items.properties.line).toMatchObject({ type: "integer" });
    // One tag an operation, each declared once; a description on every operation.
    const tags = doc.tags.map((tag: { name: string }) => tag.name);
    expect(new Set(tags).size).toBe(tags.length);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        expect(operation.tags, `${method} ${path}`).toHaveLength(1);
        expect(tags, `${method} ${path}`).toContain(operation.tags[0]);
        expect(operation.description, `${method} ${path}`).toMatch(/\w{3}/);
      }
    expect(doc.paths[`${A}/globals/{id}/revisions/{revision}/restore`].post.tags).toEqual(["Revisions"]);
    expect(doc.paths[`${A}/webhooks/{id}/rotate_secret`].post.tags).toEqual(["Webhooks"]);
  });

  it("serves a reference page at /v1/docs without a token", async () => {
    const response = await request(`${server.url}/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.text).toContain("openapi.json");
    expect(response.text).toContain("/v1/accounts/{account_id}/collections/{collection_id}/entries");
  });

  it("answers HEAD with the document's length", async () => {
    const got = await fetch(`${server.url}/v1/openapi.json`);
    const head = await fetch(`${server.url}/v1/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(await got.text())));
    expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"));
  });

  it("is built once: every request gets the same document", async () => {
    const again = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    expect(again).toEqual(doc);
  });
});

describe("real answers match the document", () => {
  it("collections: create (201), create again by handle (200), get, list, patch", async () => {
    const body = {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "rating", type: "number" },
          { handle: "category", type: "enumerate", options: { enumerations: ["news", "guides"] } },
          { handle: "related", type: "entity" },
        ],
      },
    };
    expect((await call("post", `${A}/collections`, {}, body)).status).toBe(201);
    expect((await call("post", `${A}/collections`, {}, { ...body, name: "The blog" })).status).toBe(200);
    expect((await call("get", `${A}/collections/{id}`, { id: "blog" })).status).toBe(200);
    expect((await call("get", `${A}/collections`, {}, undefined, { query: "?page=1" })).status).toBe(200);
    expect((await call("patch", `${A}/collections/{id}`, { id: "blog" }, { name: "Blog" })).status).toBe(200);
  });

  it("entries with blueprint values: create, list, get, put, patch, delete", async () => {
    const entries = `${A}/collections/{collection_id}/entries`;
    const first = await call(
      "post",
      entries,
      { collection_id: "blog" },
      {
        handle: "hello",
        title: "Hello",
        published_at: "2024-05-01T09:00:00Z",
        body: "<p>Hi</p>",
        rating: 4.5,
        category: "news",
      },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ body: "<p>Hi</p>", rating: 4.5, category: "news" });
    const second = await call(
      "post",
      entries,
      { collection_id: "blog" },
      {
        handle: "second",
        title: "Second",
        related: "hello",
      },
    );
    expect(second.body.related).toMatchObject({ handle: "hello" });
    const list = await call("get", entries, { collection_id: "blog" }, undefined, {
      query: "?published=true",
    });
    expect(list.body.data).toHaveLength(2);
    await call("get", `${entries}/{id}`, { collection_id: "blog", id: "hello" });
    await call("put", `${entries}/{id}`, { collection_id: "blog", id: "hello" }, { rating: 5 });
    await call("patch", `${entries}/{id}`, { collection_id: "blog", id: "hello" }, { published: false });
    expect((await call("delete", `${entries}/{id}`, { collection_id: "blog", id: "second" })).status).toBe(
      204,
    );
  });

  it("errors: 422, 404, 401, 400 and 403 have the documented body", async () => {
    const entries = `${A}/collections/{collection_id}/entries`;
    const invalid = await call(
      "post",
      entries,
      { collection_id: "blog" },
      { handle: "x", title: "X", category: "gossip" },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.details).toContainEqual(expect.objectContaining({ path: "category" }));
    expect((await call("get", `${entries}/{id}`, { collection_id: "blog", id: "nope" })).status).toBe(404);
    expect((await call("get", `${A}/collections`, {}, undefined, { token: null })).status).toBe(401);
    expect((await call("get", `${A}/collections`, {}, undefined, { query: "?page=0" })).status).toBe(422);
    const malformed = await request(`${server.url}/v1/accounts/${client.account.account_id}/collections`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.account.token}`, "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    checkResponse("post", `${A}/collections`, malformed);
    const stranger = await createAccount(server, "Other");
    expect((await call("get", `${A}/collections`, {}, undefined, { token: stranger.token })).status).toBe(
      403,
    );
  });

  it("429: the documented body and headers, past a token's budget", async () => {
    const limited = await startServer({ RATE_LIMIT_PER_MINUTE: "1" });
    try {
      const account = await createAccount(limited, "Limited");
      const path = `${limited.url}/v1/accounts/${account.account_id}/collections`;
      const get = () => request(path, { headers: { authorization: `Bearer ${account.token}` } });
      expect((await get()).status).toBe(200);
      const refused = await get();
      expect(refused.status, refused.text).toBe(429);
      checkResponse("get", `${A}/collections`, refused);
      for (const name of Object.keys(doc.components.responses.TooManyRequests.headers)) {
        const value = refused.headers.get(name);
        expect(value, name).toMatch(/^\d+$/);
        expectValid(schemaAt(pointer("components", "headers", name, "schema")), Number(value), name);
      }
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    } finally {
      await limited.stop();
    }
  });

  it("blueprints: the blueprint envelope", async () => {
    await call("post", `${A}/blueprints`, {}, { title: "Card", fields: [{ handle: "text", type: "text" }] });
    const list = await call("get", `${A}/blueprints`);
    expect(list.body.pagination).toMatchObject({ current_page: 1, per_page: 25 });
    await call("put", `${A}/blueprints/{id}`, { id: "card" }, { title: "Card", fields: [] });
  });

  it("templates: wrapped and bare bodies", async () => {
    expect(
      (await call("post", `${A}/templates`, {}, { template: { handle: "index", html: "{{ title }}" } }))
        .status,
    ).toBe(201);
    await call("patch", `${A}/templates/{id}`, { id: "index" }, { html: "<h1>{{ title }}</h1>" });
    await call("get", `${A}/templates`);
  });

  it("globals: values as top-level keys", async () => {
    const created = await call(
      "post",
      `${A}/globals`,
      {},
      {
        name: "Footer",
        fields: [{ handle: "copyright", type: "text" }],
        copyright: "© Acme",
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.copyright).toBe("© Acme");
    await call("patch", `${A}/globals/{id}`, { id: "footer" }, { copyright: "© Acme 2024" });
    await call("get", `${A}/globals`);
    expect((await call("delete", `${A}/globals/{id}`, { id: "footer" })).status).toBe(204);
  });

  it("navigations and items: the tree, the flat list, linked items", async () => {
    await call("post", `${A}/navigations`, {}, { title: "Main", handle: "main" });
    const items = `${A}/navigations/{navigation_id}/items`;
    const home = await call("post", items, { navigation_id: "main" }, { title: "Home", url: "/" });
    await call(
      "post",
      items,
      { navigation_id: "main" },
      { title: "Hello", collection_handle: "blog", entry_handle: "hello" },
    );
    await call(
      "post",
      items,
      { navigation_id: "main" },
      { title: "Child", url: "/child", parent_id: home.body.id },
    );
    await call("get", `${A}/navigations/{id}`, { id: "main" });
    const tree = await call("get", items, { navigation_id: "main" });
    expect(tree.body.data[0].children).toHaveLength(1);
    await call("get", items, { navigation_id: "main" }, undefined, { query: "?all=true" });
    await call("get", `${items}/{id}`, { navigation_id: "main", id: home.body.id });
    await call("put", `${items}/{id}`, { navigation_id: "main", id: home.body.id }, { priority: 3 });
  });

  it("forms", async () => {
    await call(
      "post",
      `${A}/forms`,
      {},
      { title: "Contact", collection_handle: "blog", blueprint_handle: "blog" },
    );
    await call("get", `${A}/forms/{id}`, { id: "contact" });
    await call("get", `${A}/forms`);
  });

  it("assets: JSON and multipart uploads", async () => {
    const json = await call(
      "post",
      `${A}/assets`,
      {},
      {
        asset: {
          filename: "hello.txt",
          content_type: "text/plain",
          data: Buffer.from("hi").toString("base64"),
        },
      },
    );
    expect(json.status).toBe(201);
    const form = new FormData();
    form.append("file", new Blob(["<svg/>"], { type: "image/svg+xml" }), "logo.svg");
    form.append("path", "images");
    const multipart = await request(`${server.url}/v1/accounts/${client.account.account_id}/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.account.token}` },
      body: form,
    });
    expect(multipart.status).toBe(201);
    checkResponse("post", `${A}/assets`, multipart);
    await call("patch", `${A}/assets/{id}`, { id: json.body.id }, { path: "docs" });
    await call("get", `${A}/assets`);
  });

  it("the checks are not vacuous: a wrong body fails the documented schema", () => {
    const path = `${A}/collections/{collection_id}/entries/{id}`;
    const entry = schemaAt(
      pointer("paths", path, "get", "responses", "200", "content", "application/json", "schema"),
    );
    expect(entry({ id: "cnety_x" })).toBe(false);
    const error = schemaAt(pointer("components", "schemas", "Error"));
    expect(error({ error: "x" })).toBe(false);
    expect(error({ error: "x", details: [{ path: "a", message: "b" }] })).toBe(true);
  });
});

describe("every operation of the document, driven through the server", () => {
  const E = `${A}/collections/{collection_id}/entries`;
  const blog = { collection_id: "blog" };

  it("the operations the examples above leave: webhooks, revisions, previews, trash, deletes", async () => {
    // First, so that the writes below have deliveries (to a host that never resolves: they wait).
    const hook = await call("post", `${A}/webhooks`, {}, { url: "https://hooks.invalid/in", events: ["*"] });
    expect(hook.status, hook.text).toBe(201);
    const webhook = { id: hook.body.id as string };
    await call("get", `${A}/webhooks`);
    await call("get", `${A}/webhooks/{id}`, webhook);
    await call("put", `${A}/webhooks/{id}`, webhook, { description: "Every event" });
    await call("patch", `${A}/webhooks/{id}`, webhook, { enabled: true });
    await call("post", `${A}/webhooks/{id}/rotate_secret`, webhook, {});

    // Collections, blueprints, templates, navigations, items, forms, globals, assets: what is left of each.
    await call("put", `${A}/collections/{id}`, { id: "blog" }, { name: "Blog" });
    await call("post", `${A}/collections`, {}, { name: "Scratch", handle: "scratch", routing: "s/:handle" });
    expect((await call("delete", `${A}/collections/{id}`, { id: "scratch" })).status).toBe(204);
    await call("get", `${A}/blueprints/{id}`, { id: "card" });
    await call("patch", `${A}/blueprints/{id}`, { id: "card" }, { title: "Card" });
    expect((await call("delete", `${A}/blueprints/{id}`, { id: "blog" })).status).toBe(409);
    expect((await call("delete", `${A}/blueprints/{id}`, { id: "card" })).status).toBe(204);
    await call("get", `${A}/templates/{id}`, { id: "index" });
    await call("put", `${A}/templates/{id}`, { id: "index" }, { html: "<h1>{{ title }}</h1>\n" });
    await call("post", `${A}/templates`, {}, { handle: "scratch", html: "x" });
    expect((await call("delete", `${A}/templates/{id}`, { id: "scratch" })).status).toBe(204);
    await call("get", `${A}/navigations`);
    await call("put", `${A}/navigations/{id}`, { id: "main" }, { title: "Main menu" });
    await call("patch", `${A}/navigations/{id}`, { id: "main" }, { title: "Main" });
    const items = await call("get", `${A}/navigations/{navigation_id}/items`, { navigation_id: "main" });
    const parent = items.body.data.find((entry: { children?: unknown[] }) => entry.children?.length);
    const child = parent.children[0].id as string;
    const item = { navigation_id: "main", id: child };
    await call("patch", `${A}/navigations/{navigation_id}/items/{id}`, item, { title: "Child" });
    expect((await call("delete", `${A}/navigations/{navigation_id}/items/{id}`, item)).status).toBe(204);
    await call("post", `${A}/navigations`, {}, { title: "Footer", handle: "footer" });
    expect((await call("delete", `${A}/navigations/{id}`, { id: "footer" })).status).toBe(204);
    await call("put", `${A}/forms/{id}`, { id: "contact" }, { title: "Contact us" });
    await call("patch", `${A}/forms/{id}`, { id: "contact" }, { title: "Contact" });
    const global = await call(
      "post",
      `${A}/globals`,
      {},
      { name: "Site", fields: [{ handle: "tagline", type: "text" }], tagline: "One" },
    );
    expect(global.status, global.text).toBe(201);
    await call("get", `${A}/globals/{id}`, { id: "site" });
    await call("put", `${A}/globals/{id}`, { id: "site" }, { tagline: "Two" });
    const assets = await call("get", `${A}/assets`);
    const asset = { id: assets.body.data[0].id as string };
    await call("get", `${A}/assets/{id}`, asset);
    await call("put", `${A}/assets/{id}`, asset, { path: "files" });

    // Creates naming a record that exists update it (200).
    const again = await call("post", E, blog, { handle: "hello", title: "Hello" });
    expect(again.status, again.text).toBe(200);
    expect((await call("post", `${A}/navigations`, {}, { title: "Main", handle: "main" })).status).toBe(200);
    const home = { title: "Home", url: "/" };
    const sameItem = await call(
      "post",
      `${A}/navigations/{navigation_id}/items`,
      { navigation_id: "main" },
      home,
    );
    expect(sameItem.status, sameItem.text).toBe(200);

    // Revisions of an entry, a global and a template: list, one, restore.
    await call("put", `${E}/{id}`, { ...blog, id: "hello" }, { title: "Hello again" });
    for (const [base, params] of [
      [`${E}/{id}`, { ...blog, id: "hello" }],
      [`${A}/globals/{id}`, { id: "site" }],
      [`${A}/templates/{id}`, { id: "index" }],
    ] as const) {
      const list = await call("get", `${base}/revisions`, params);
      expect(list.body.data.length, base).toBeGreaterThan(1);
      const revision = { ...params, revision: String(list.body.data.at(-1).number) };
      await call("get", `${base}/revisions/{revision}`, revision);
      expect((await call("post", `${base}/revisions/{revision}/restore`, revision, {})).status).toBe(200);
    }
    await call("post", `${E}/{id}/preview`, { ...blog, id: "hello" }, {});

    // Trash: a form and an asset deleted; one restored, the other purged.
    expect((await call("delete", `${A}/forms/{id}`, { id: "contact" })).status).toBe(204);
    expect((await call("delete", `${A}/assets/{id}`, asset)).status).toBe(204);
    const trash = await call("get", `${A}/trash`);
    const byType = (type: string) =>
      trash.body.data.find((entry: { type: string }) => entry.type === type).id;
    await call("post", `${A}/trash/{id}/restore`, { id: byType("form") }, {});
    expect((await call("delete", `${A}/trash/{id}`, { id: byType("asset") })).status).toBe(204);

    // Deliveries (written by the outbox after each change), a redelivery, and the webhook's delete.
    let deliveries: ApiResponse | undefined;
    for (let tries = 0; tries < 50 && !deliveries?.body.data.length; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      deliveries = await call("get", `${A}/webhooks/{id}/deliveries`, webhook, undefined, {
        query: "?status=pending",
      });
    }
    const delivery = deliveries?.body.data[0].id as string;
    expect(delivery, deliveries?.text).toBeDefined();
    await call("post", `${A}/webhooks/{id}/deliveries/{delivery}/redeliver`, { ...webhook, delivery }, {});
    expect((await call("delete", `${A}/webhooks/{id}`, webhook)).status).toBe(204);

    // The whole site out and, checked only, back in.
    const exported = await call("get", `${A}/export.yaml`);
    expect(exported.text).toMatch(/^format: cms-site\/1$/m);
    const dryRun = await call("post", `${A}/import`, {}, undefined, {
      raw: exported.text,
      type: "application/yaml",
      query: "?dry_run=true",
    });
    expect(dryRun.status, dryRun.text).toBe(200);
    succeeded.set(operationKey("post", `${A}/import`), { params: {}, query: "?dry_run=true" });
    // Asked for as a job: 202, then the job read back by its id until it has ended.
    const accepted = await call("post", `${A}/import`, {}, undefined, {
      raw: exported.text,
      type: "application/yaml",
      query: "?dry_run=true",
      headers: { prefer: "respond-async" },
    });
    expect(accepted.status, accepted.text).toBe(202);
    let job = await call("get", `${A}/import/jobs/{id}`, { id: accepted.body.id });
    for (let tries = 0; job.body.status === "running" && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = await call("get", `${A}/import/jobs/{id}`, { id: accepted.body.id });
    }
    expect(job.body.status, job.text).toBe("succeeded");
    const refused = await call("post", `${A}/import`, {}, undefined, {
      raw: "format: cms-site/1\ncollections: 5\n",
      type: "application/yaml",
    });
    expect(refused.status, refused.text).toBe(422);
    const wrongType = await call("post", `${A}/import`, {}, undefined, { raw: "x", type: "text/plain" });
    expect(wrongType.status, wrongType.text).toBe(415);
  });

  it("every operation's client errors: 400, 401, 403, 404, 413 and 422 where documented", async () => {
    const stranger = await createAccount(server, "Stranger");
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        const key = operationKey(method, path);
        const success = succeeded.get(key);
        expect(success, `${key} answered a success first`).toBeDefined();
        if (!success) continue;
        const documents = (status: number) => operation.responses[status] !== undefined;
        const names = (path.match(/\{(\w+)\}/g) ?? []).map((name) => name.slice(1, -1));
        const intParameters = operation.parameters
          .filter((p: any) => p.in === "path" && p.schema.type === "integer")
          .map((p: any) => p.name);
        const missing = Object.fromEntries(
          names.map((name) => [name, intParameters.includes(name) ? "999999" : "nope"]),
        );
        const json = operation.requestBody?.content?.["application/json"] !== undefined;
        const body = json ? (success.body ?? {}) : undefined;
        const raw = operation.requestBody && !json ? "x" : undefined;
        const send = (
          params: Record<string, string>,
          options: Parameters<typeof call>[4] = {},
          sent: unknown = body,
        ) =>
          call(method as "get", path, params, sent, {
            query: success.query,
            unchecked: true,
            ...(raw !== undefined && !options.raw ? { raw, type: "application/yaml" } : {}),
            ...options,
          });

        expect((await send(missing, { token: null })).status, `${key} without a token`).toBe(401);
        expect((await send(missing, { token: stranger.token })).status, `${key} for a stranger`).toBe(403);
        if (names.length > 1) expect((await send(missing)).status, `${key} of a missing record`).toBe(404);
        if (documents(400)) {
          // An import's body is YAML or an archive: a .tar.gz that is none.
          const malformed = json ? { raw: "{" } : { raw: "garbage", type: "application/gzip" };
          expect((await send(success.params, malformed)).status, `${key} malformed`).toBe(400);
        }
        if (documents(413)) {
          const tooLarge = json
            ? await send(success.params, {
                raw: JSON.stringify({ padding: "x".repeat(2 * 1024 * 1024 + 1) }),
              })
            : await declaredTooLarge(path, success.query);
          expect(tooLarge.status, `${key} too large`).toBe(413);
        }
        // Sent whether or not the document promises a 422: an answer it does not document fails too.
        const refused = await refusedRequest(path, operation, success, intParameters, send);
        if (refused) expect(refused.status, `${key} refused: ${refused.text}`).toBe(422);
      }
  });

  it("every bound and value set of a body field is refused past it, with a 422 on that field", async () => {
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        const schema = operation.requestBody?.content?.["application/json"]?.schema;
        const target = schema?.$ref ?? schema?.anyOf?.[0]?.$ref;
        const success = succeeded.get(operationKey(method, path));
        if (!target || !success?.body) continue;
        const wrapper = schema.anyOf?.[1]?.required?.[0];
        const sent = success.body as Record<string, unknown>;
        const fields = wrapper && sent[wrapper] ? (sent[wrapper] as Record<string, unknown>) : sent;
        const properties = doc.components.schemas[target.split("/").pop()].properties;
        for (const [name, property] of Object.entries(properties as Record<string, any>))
          for (const value of pastBounds(property)) {
            const response = await call(
              method as "post",
              path,
              success.params,
              { ...fields, [name]: value },
              {
                unchecked: true,
              },
            );
            const label = `${method} ${path} ${name}=${JSON.stringify(value).slice(0, 40)}: ${response.text}`;
            expect(response.status, label).toBe(422);
            expect(
              response.body.details.some((detail: { path: string }) => detail.path.startsWith(name)),
              label,
            ).toBe(true);
            checked++;
          }
      }
    expect(checked).toBeGreaterThan(50);
  });

  it("documents the validators: If-None-Match, ETag, Cache-Control and 304 on GETs, If-Match and 412 on writes", () => {
    const { parameters, headers, responses } = doc.components;
    expect(parameters.IfNoneMatch).toMatchObject({ name: "If-None-Match", in: "header", required: false });
    expect(parameters.IfMatch).toMatchObject({ name: "If-Match", in: "header", required: false });
    expect(headers["Cache-Control"].schema).toEqual({ type: "string", const: "private, no-cache" });
    expect(responses.NotModified.content).toBeUndefined();
    expect(responses.PreconditionFailed.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    let reads = 0;
    let writes = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        const names = operation.parameters.map((parameter: { $ref?: string }) => parameter.$ref);
        if (method === "get" && operation.operationId !== "exportSite") {
          reads++;
          expect(names, `${method} ${path}`).toContain("#/components/parameters/IfNoneMatch");
          expect(operation.responses[304], `${method} ${path}`).toEqual({
            $ref: "#/components/responses/NotModified",
          });
          expect(Object.keys(operation.responses[200].headers)).toEqual(["ETag", "Cache-Control"]);
        } else if (method !== "get" && method !== "post") {
          writes++;
          expect(names, `${method} ${path}`).toContain("#/components/parameters/IfMatch");
          expect(operation.responses[412], `${method} ${path}`).toEqual({
            $ref: "#/components/responses/PreconditionFailed",
          });
        }
      }
    expect(reads).toBeGreaterThan(20);
    expect(writes).toBeGreaterThan(20);
  });

  it("304 and 412: a revalidated read, a current write and a stale one, each as documented", async () => {
    const path = `${A}/collections/{id}`;
    const blog = { id: "blog" };
    const etag = (await call("get", path, blog)).headers.get("etag") ?? "";
    const revalidated = await call("get", path, blog, undefined, { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    const current = await call(
      "patch",
      path,
      blog,
      { name: "Blog, edited" },
      { headers: { "if-match": etag } },
    );
    expect(current.status, current.text).toBe(200);
    const stale = await call("patch", path, blog, { name: "Stale" }, { headers: { "if-match": etag } });
    expect(stale.status).toBe(412);
    expect(stale.body.details).toEqual([expect.objectContaining({ path: "if_match" })]);
  });

  it("has seen every operation answer each status it documents (304, 409, 412, 415, 429: on one; 503: timeouts.test.ts)", () => {
    const sampled = new Set([304, 409, 412, 415, 429, 503]);
    const unseen: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        const seen = exercised.get(operationKey(method, path)) ?? new Set();
        for (const status of Object.keys(operation.responses).map(Number))
          if (!sampled.has(status) && !seen.has(status)) unseen.push(`${method} ${path} ${status}`);
      }
    expect(unseen).toEqual([]);
    const all = new Set([...exercised.values()].flatMap((statuses) => [...statuses]));
    for (const status of [304, 409, 412, 415, 429]) expect(all.has(status), String(status)).toBe(true);
  });
});

/** Values a documented property refuses: just past each bound, or outside its value set. */
function pastBounds(property: Record<string, any>): unknown[] {
  const values: unknown[] = [];
  if (property.minLength >= 1) values.push("");
  if (property.maxLength !== undefined && property.maxLength < 100_000)
    values.push("a".repeat(property.maxLength + 1));
  if (property.minimum !== undefined) values.push(property.minimum - 1);
  if (property.maximum !== undefined) values.push(property.maximum + 1);
  if (Array.isArray(property.enum)) values.push("not-one-of-them");
  if (property.items?.enum) values.push(["not-one-of-them"]);
  return values;
}

/** A body declared larger than any limit (128 MB for an import's YAML): refused before it is sent. */
async function declaredTooLarge(path: string, query = ""): Promise<ApiResponse> {
  const target = `${doc.servers[0].url}${path.replace("{account_id}", client.account.account_id)}${query}`;
  const exchange = await rawExchange(
    server,
    `POST ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${client.account.token}\r\n` +
      "Content-Type: application/yaml\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\n",
  );
  const [head = "", text = ""] = exchange.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Headers(lines.map((line) => line.split(/:\s*/, 2) as [string, string]));
  const response = {
    status: Number(statusLine.split(" ")[1]),
    headers,
    text,
    body: JSON.parse(text || "null"),
  };
  checkResponse("post", path, response);
  return response;
}

/**
 * A request the operation refuses with a 422: a whole-number path parameter that is not one, a query
 * parameter out of its documented bounds, or a body field of the wrong type.
 */
async function refusedRequest(
  path: string,
  operation: any,
  success: { params: Record<string, string>; body?: unknown; query?: string },
  intParameters: string[],
  send: (params: Record<string, string>, options?: any, body?: unknown) => Promise<ApiResponse>,
): Promise<ApiResponse | undefined> {
  if (intParameters.length > 0) return send({ ...success.params, [intParameters[0] as string]: "abc" });
  const query = operation.parameters.filter((p: any) => p.in === "query");
  if (path.endsWith("/import"))
    return send(success.params, { raw: "format: nope\n", type: "application/yaml" });
  if (query.length > 0) {
    const page = query.find((p: any) => p.name === "page");
    return send(success.params, { query: page ? "?page=0" : `?${query[0].name}=nope` });
  }
  // The body's first text field, sent as a number (a wrapped body is unwrapped: both are taken).
  const schema = operation.requestBody?.content?.["application/json"]?.schema;
  const target = schema?.$ref ?? schema?.anyOf?.[0]?.$ref;
  if (!target) return undefined;
  const properties = doc.components.schemas[target.split("/").pop()].properties;
  const text = Object.keys(properties).find((name) => [properties[name].type].flat().includes("string"));
  if (!text) return undefined;
  const sent = success.body as Record<string, unknown>;
  const wrapper = schema.anyOf?.[1]?.required?.[0];
  const fields = wrapper && sent[wrapper] ? (sent[wrapper] as Record<string, unknown>) : sent;
  return send(success.params, {}, { ...fields, [text as string]: 12345 });
}
