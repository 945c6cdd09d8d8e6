// Limits in one place, as the README's API notes state them: list pages (past the end is empty;
// below 1, past 1,000,000 or not a whole number is a 422 on `page`), handle lengths and characters, the
// number of fields of a blueprint, and the longest names, titles and texts. Each is a 422 on the field,
// never a 500; body (413) and upload (413) sizes are tested in conventions.test.ts and assets.test.ts. URLs
// and headers past Node's 16 KB (431) and malformed requests (400) get the error body too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../src/rest/routes.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expect422Naming, expectError } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { rawExchange, startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Limits");
  client = api(server, account);
  expect(
    (
      await client.post("/collections", {
        name: "Blog",
        handle: "blog",
        routing: "blog/:handle",
        blueprint: { fields: [{ handle: "body", type: "text" }] },
      })
    ).status,
  ).toBe(201);
  expect((await client.post("/navigations", { title: "Main", handle: "main" })).status).toBe(201);
  const records = await Promise.all([
    client.post("/collections/blog/entries", { handle: "first", title: "First" }),
    client.post("/globals", { name: "Site", handle: "site" }),
    client.post("/templates", { handle: "page", html: "<p></p>" }),
    client.post("/webhooks", { url: "https://hooks.invalid/in", events: ["entry.created"] }),
  ]);
  for (const made of records) expect(made.status, made.text).toBe(201);
  webhookId = records[3]?.body.id;
});

afterAll(async () => {
  await server?.stop();
});

let webhookId = "";

/** Every list route of the route table, with the records its path needs. */
function listPaths(): string[] {
  // A record's own list (its revisions, deliveries) names the record: those made above.
  const records: Record<string, string> = {
    entries: "first",
    globals: "site",
    templates: "page",
    webhooks: webhookId,
  };
  return routes
    .filter((route) => route.method === "GET" && !/\/:\w+$/.test(route.path))
    .map((route) =>
      route.path
        .replace("/accounts/:account_id", "")
        .replace(":collection_id", "blog")
        .replace(":navigation_id", "main")
        .replace(/\/(\w+)\/:id\//, (_, segment: string) => `/${segment}/${records[segment] ?? ":id"}/`),
    );
}

const fields = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ handle: `f${i}`, type: "text" }));

describe("list pages", () => {
  it("answers a page past the end of every list with empty data and the page asked for", async () => {
    for (const path of listPaths()) {
      const response = await client.get(`${path}?page=1000000`);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      expect(response.body.data, path).toEqual([]);
      const pagination = response.body.pagination;
      expect(pagination.page ?? pagination.current_page, path).toBe(1000000);
    }
  });

  it("answers a page below 1, past 1,000,000, huge or not a whole number with 422 on page", async () => {
    const pages = [
      "0",
      "-1",
      "1000001",
      "99999999999999",
      "1e3",
      "1.5",
      "abc",
      "0x10",
      "%00",
      "1%20OR%201=1",
    ];
    for (const path of listPaths()) {
      for (const page of pages) {
        expectError(await client.get(`${path}?page=${page}`), 422, "page");
      }
    }
  });

  it("answers the same pages over GraphQL with a client error, never a 500", async () => {
    for (const page of [0, -1, 1_000_001, 2 ** 31, 2 ** 53, 1.5]) {
      const response = await request(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
        body: JSON.stringify({
          query: "query ($a: ID!, $p: Int) { collections(account_id: $a, page: $p) { data { handle } } }",
          variables: { a: account.account_id, p: page },
        }),
      });
      expect(response.body.data?.collections ?? null, `${page}`).toBeNull();
      if (Number.isSafeInteger(page) && Math.abs(page) < 2 ** 31) {
        // A valid Int: the schema's rule, a 422 on page.
        expect(response.body.errors?.[0]?.extensions?.code, `${page}: ${response.text}`).toBe(
          "UNPROCESSABLE_ENTITY",
        );
        expect(response.body.errors[0].extensions.details[0].path).toBe("page");
      } else {
        // No GraphQL Int: refused while reading the variables, a 400.
        expect(response.status, `${page}: ${response.text}`).toBe(400);
        expect(response.body.errors?.[0]?.message, `${page}`).toMatch(/\$p/);
      }
    }
  });
});

describe("handles", () => {
  const creates: Array<[string, (handle: string) => unknown]> = [
    ["/collections", (handle) => ({ name: "C", handle, routing: `${handle.slice(0, 50)}x/:handle` })],
    ["/collections/blog/entries", (handle) => ({ title: "E", handle })],
    ["/blueprints", (handle) => ({ title: "B", handle, fields: [] })],
    ["/navigations", (handle) => ({ title: "N", handle })],
    ["/forms", (handle) => ({ title: "F", handle, collection_handle: "blog", blueprint_handle: "blog" })],
  ];

  it("takes 100 characters of lowercase letters, digits, '-' and '_'", async () => {
    const handle = `a${"-_0b".repeat(24)}c9x`;
    expect(handle).toHaveLength(100);
    for (const [path, body] of creates) {
      const response = await client.post(path, body(handle));
      expect(response.status, `${path}: ${response.text}`).toBe(201);
      expect(response.body.handle ?? response.body.collection?.handle).toBe(handle);
    }
  });

  it("answers a longer handle or other characters with 422 on handle", async () => {
    const bad = [
      "a".repeat(101),
      "Upper",
      "with space",
      "ünïcödé",
      "日本",
      "-lead",
      "trail_",
      "a.b",
      "a'b",
      "{{x}}",
      "a\u0000b",
      "",
    ];
    for (const [path, body] of creates) {
      for (const handle of bad) expect422Naming(await client.post(path, body(handle)), "handle");
    }
  });

  it("takes 200-character template handles with folders, and refuses longer or other ones", async () => {
    const handle = `pages/${"a-b_".repeat(48)}c0`;
    expect(handle).toHaveLength(200);
    const create = (name: string) =>
      client.post("/templates", { template: { title: "T", handle: name, html: "x" } });
    expect((await create(handle)).status).toBe(201);
    for (const bad of [
      "a".repeat(201),
      "Upper",
      "with space",
      "ünï",
      "-lead",
      "/abs",
      "a//b",
      "a/",
      "../x",
      "a.b",
    ]) {
      expect422Naming(await create(bad), "handle");
    }
  });

  it("takes 64-character snake_case global handles and refuses longer or other ones", async () => {
    const handle = `g${"_a1".repeat(21)}`;
    expect(handle).toHaveLength(64);
    expect((await client.post("/globals", { name: "G", handle })).status).toBe(201);
    for (const bad of [`g${"a".repeat(64)}`, "with-dash", "Upper", "1lead", "ü"]) {
      expect422Naming(await client.post("/globals", { name: "G", handle: bad }), "handle");
    }
  });
});

describe("fields per blueprint", () => {
  it("takes 100 fields and answers 101 with 422 on fields, wherever a blueprint is written", async () => {
    expect(
      (await client.post("/blueprints", { title: "Wide", handle: "wide", fields: fields(100) })).status,
    ).toBe(201);
    const tooMany: Array<[string, ApiResponse]> = [
      [
        "POST /blueprints",
        await client.post("/blueprints", { title: "W", handle: "wider", fields: fields(101) }),
      ],
      ["PUT /blueprints", await client.put("/blueprints/wide", { fields: fields(101) })],
      [
        "POST /collections (inline)",
        await client.post("/collections", {
          name: "W",
          handle: "wide-c",
          routing: "wide/:handle",
          blueprint: { fields: fields(101) },
        }),
      ],
      ["POST /globals", await client.post("/globals", { name: "W", handle: "wide_g", fields: fields(101) })],
    ];
    for (const [label, response] of tooMany) {
      expect(response.status, `${label}: ${response.text}`).toBe(422);
      expect(
        response.body.details.some((detail: { path: string }) => /fields$/.test(detail.path)),
        `${label}: ${response.text}`,
      ).toBe(true);
    }
    expect((await client.get("/blueprints/wide")).body.fields).toHaveLength(100);
  });
});

describe("names, titles and texts", () => {
  it("answers a name or title past its documented length with 422 on it", async () => {
    const long = (n: number) => "x".repeat(n);
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/collections", { name: long(201), handle: "n1", routing: "n1/:handle" }, "name"],
      ["POST", "/blueprints", { title: long(201), handle: "n2", fields: [] }, "title"],
      ["POST", "/navigations", { title: long(201), handle: "n3" }, "title"],
      ["POST", "/navigations/main/items", { title: long(201), url: "/x" }, "title"],
      ["POST", "/navigations/main/items", { title: "x", url: `/${long(2048)}` }, "url"],
      ["POST", "/forms", { title: long(201), collection_handle: "blog", blueprint_handle: "blog" }, "title"],
      ["POST", "/templates", { template: { title: long(201), handle: "n4", html: "x" } }, "title"],
      ["POST", "/globals", { name: long(201), handle: "n5" }, "name"],
      ["POST", "/collections/blog/entries", { title: long(501), handle: "n6" }, "title"],
      ["POST", "/templates", { template: { handle: "n7", html: long(1024 * 1024 + 1) } }, "html"],
      ["POST", "/assets", { asset: { filename: `${long(252)}.txt`, data: "AAAA" } }, "filename"],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await (method === "POST" ? client.post(path, body) : client.put(path, body));
      expect422Naming(response, field);
    }
    // At the limit, each is taken.
    expect(
      (await client.post("/collections", { name: long(200), handle: "n8", routing: "n8/:handle" })).status,
    ).toBe(201);
    expect((await client.post("/collections/blog/entries", { title: long(500), handle: "n9" })).status).toBe(
      201,
    );
  });
});

describe("requests Node refuses before reading them", () => {
  const raw = (text: string) => rawExchange(server, text);

  it("answers a URL and headers past 16 KB with 431 and the error body on headers", async () => {
    const response = await client.get(`/collections?handle=${"x".repeat(20_000)}`);
    expectError(response, 431, "headers");
  });

  it("answers a HEAD request past 16 KB with 431 and no body", async () => {
    const answer = await raw(`HEAD /v1?x=${"x".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer.endsWith("\r\n\r\n")).toBe(true);
  });

  it("answers a malformed request with 400 and the error body", async () => {
    const answer = await raw("GET /v1 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      error: "Malformed HTTP request",
      details: [],
    });
  });
});
