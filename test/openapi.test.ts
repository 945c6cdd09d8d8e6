// The OpenAPI document at /v1/openapi.json (decisions.md "Running the service"): a valid OpenAPI 3
// document covering every route of the contract, and accurate: real requests and answers, through the
// real server, match the request and response schemas it documents for their path, method and status.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPaths } from "../src/rest/export-openapi.ts";
import { importPaths } from "../src/rest/import-openapi.ts";
import { routes } from "../src/rest/routes.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;
let doc: any;
let ajv: Ajv2020;

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
  options: { token?: string | null; query?: string } = {},
): Promise<ApiResponse> {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
  if (body !== undefined) {
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
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await request(`${server.url}${doc.servers[0].url}${concrete}${options.query ?? ""}`, {
    method: method.toUpperCase(),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  checkResponse(method, path, response);
  return response;
}

function checkResponse(method: string, path: string, response: ApiResponse): void {
  const documented = doc.paths[path][method].responses[String(response.status)];
  expect(documented, `${method} ${path} documents status ${response.status}: ${response.text}`).toBeDefined();
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
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expectValid(
    schemaAt(`${location}/${pointer("content", "application/json", "schema")}`),
    response.body,
    `${response.status} of ${method} ${path}`,
  );
}

const A = "/accounts/{account_id}";

beforeAll(async () => {
  server = await startServer();
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
