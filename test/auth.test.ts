// Authentication and tenant isolation (content-api.md "Authentication"; decisions.md "Running the
// service" and "REST decisions"): 401 without a valid bearer token, 403 for another account's path, 404
// for another account's records seen from one's own path, and nothing of one account in another's answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectErrorBody, expectNoInternals } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let accountA: TestAccount;
let accountB: TestAccount;
let a: Api;
let b: Api;
/** B's token aimed at A's account path. */
let bOnA: Api;

/** Text only account A's records carry; it must never reach anyone but A. */
const SECRET = "ALPHA_SECRET";

const fixture = {
  blueprintId: "",
  freeBlueprintId: "",
  collectionId: "",
  entryId: "",
};

/** Everything A's token reads about A's records, to compare before and after B's attempts. */
async function snapshotA() {
  const reads = await Promise.all([
    a.get("/collections"),
    a.get(`/collections/${fixture.collectionId}`),
    a.get(`/collections/${fixture.collectionId}/entries`),
    a.get(`/collections/${fixture.collectionId}/entries/${fixture.entryId}`),
    a.get("/blueprints"),
    a.get(`/blueprints/${fixture.blueprintId}`),
    a.get(`/blueprints/${fixture.freeBlueprintId}`),
  ]);
  for (const read of reads) expect(read.status, read.text).toBe(200);
  return reads.map((read) => read.body);
}

function graphql(token: string | undefined, query: string, headers: Record<string, string> = {}) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ query }),
  });
}

beforeAll(async () => {
  server = await startServer();
  [accountA, accountB] = await Promise.all([createAccount(server, "Alpha"), createAccount(server, "Bravo")]);
  a = api(server, accountA);
  b = api(server, accountB);
  bOnA = api(server, accountA, accountB.token);

  const blueprint = await a.post("/blueprints", {
    title: `${SECRET} post`,
    handle: "a-bp",
    fields: [{ handle: "body", display: "Body", type: "text" }],
  });
  expect(blueprint.status, blueprint.text).toBeLessThan(300);
  fixture.blueprintId = blueprint.body.id;
  const free = await a.post("/blueprints", { title: `${SECRET} free`, handle: "a-free-bp", fields: [] });
  expect(free.status, free.text).toBeLessThan(300);
  fixture.freeBlueprintId = free.body.id;
  const collection = await a.post("/collections", {
    name: `${SECRET} collection`,
    handle: "a-coll",
    routing: "alpha/:handle",
    blueprint_handle: "a-bp",
  });
  expect(collection.status, collection.text).toBe(201);
  fixture.collectionId = collection.body.id;
  const entry = await a.post("/collections/a-coll/entries", {
    handle: "a-entry",
    title: `${SECRET} entry`,
    body: `${SECRET} body value`,
  });
  expect(entry.status, entry.text).toBe(201);
  fixture.entryId = entry.body.id;

  const bCollection = await b.post("/collections", {
    name: "Bravo collection",
    handle: "b-coll",
    routing: "bravo/:handle",
    blueprint: { fields: [{ handle: "body", display: "Body", type: "text" }] },
  });
  expect(bCollection.status, bCollection.text).toBe(201);
  const bEntry = await b.post("/collections/b-coll/entries", {
    handle: "b-entry",
    title: "Bravo entry",
    body: "bravo",
  });
  expect(bEntry.status, bEntry.text).toBe(201);
});

afterAll(() => server?.stop());

describe("missing or invalid bearer token", () => {
  const path = () => `/v1/accounts/${accountA.account_id}/collections`;

  it("answers 401 with the error body when there is no Authorization header", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["POST", JSON.stringify({ name: "X", handle: "x", routing: "x/:handle" })],
      ["PUT", JSON.stringify({ name: "X" })],
      ["PATCH", JSON.stringify({ name: "X" })],
      ["DELETE", undefined],
    ] as const) {
      const target = method === "GET" || method === "POST" ? path() : `${path()}/a-coll`;
      const response = await request(`${server.url}${target}`, {
        method,
        headers: body ? { "content-type": "application/json" } : {},
        body,
      });
      expectErrorBody(response, 401);
      expect(response.text).not.toContain(SECRET);
    }
    expect((await a.get("/collections/a-coll")).body.name).toBe(`${SECRET} collection`);
  });

  it("answers 401 to malformed Authorization headers", async () => {
    const malformed = [
      "",
      "Bearer",
      "Bearer ",
      accountA.token,
      `Basic ${Buffer.from(`user:${accountA.token}`).toString("base64")}`,
      `Token ${accountA.token}`,
      `Bearer ${accountA.token} extra`,
      `Bearer${accountA.token}`,
    ];
    for (const authorization of malformed) {
      const response = await request(`${server.url}${path()}`, { headers: { authorization } });
      expect(response.status, `Authorization: ${JSON.stringify(authorization)} -> ${response.status}`).toBe(
        401,
      );
      expectErrorBody(response, 401);
    }
  });

  it("answers 401 to an unknown token, however it looks", async () => {
    for (const token of [
      "cms_unknown",
      `${accountA.token}x`,
      accountA.token.slice(0, -1),
      "x".repeat(5000),
      "' OR 1=1 --",
    ]) {
      const response = await request(`${server.url}${path()}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expectErrorBody(response, 401);
      expect(response.text).not.toContain(SECRET);
    }
  });

  it("answers 401 on entry and blueprint routes too", async () => {
    const base = `${server.url}/v1/accounts/${accountA.account_id}`;
    for (const target of [
      `/collections/a-coll/entries`,
      `/collections/a-coll/entries/a-entry`,
      `/blueprints`,
      `/blueprints/a-bp`,
    ]) {
      const response = await request(`${base}${target}`, { headers: { authorization: "Bearer nope" } });
      expectErrorBody(response, 401);
      expect(response.text).not.toContain(SECRET);
    }
  });
});

describe("another account's token on this account's path", () => {
  it("gets 403 on every route, with the error body and none of A's data, and changes nothing", async () => {
    const before = await snapshotA();
    const { collectionId, entryId, blueprintId, freeBlueprintId } = fixture;
    const collectionBody = { name: "BRAVO took over", handle: "b-new", routing: "b/:handle" };
    const entryBody = { handle: "b-new-entry", title: "BRAVO took over", body: "BRAVO" };
    const blueprintBody = { title: "BRAVO took over", handle: "b-new-bp", fields: [] };
    const attempts: Array<[string, () => Promise<ApiResponse>]> = [
      ["GET /collections", () => bOnA.get("/collections")],
      ["GET /collections?handle=a-coll", () => bOnA.get("/collections?handle=a-coll")],
      ["GET /collections/:id", () => bOnA.get(`/collections/${collectionId}`)],
      ["GET /collections/:handle", () => bOnA.get("/collections/a-coll")],
      ["POST /collections", () => bOnA.post("/collections", collectionBody)],
      [
        "POST /collections (A's handle)",
        () => bOnA.post("/collections", { ...collectionBody, handle: "a-coll" }),
      ],
      ["PUT /collections/:id", () => bOnA.put(`/collections/${collectionId}`, { name: "BRAVO took over" })],
      ["PATCH /collections/:handle", () => bOnA.patch("/collections/a-coll", { name: "BRAVO took over" })],
      ["DELETE /collections/:id", () => bOnA.delete(`/collections/${collectionId}`)],
      ["GET entries", () => bOnA.get(`/collections/${collectionId}/entries`)],
      ["GET entries by handle", () => bOnA.get("/collections/a-coll/entries")],
      ["GET entry", () => bOnA.get(`/collections/${collectionId}/entries/${entryId}`)],
      ["GET entry by handles", () => bOnA.get("/collections/a-coll/entries/a-entry")],
      ["POST entry", () => bOnA.post(`/collections/${collectionId}/entries`, entryBody)],
      [
        "POST entry (A's handle)",
        () => bOnA.post("/collections/a-coll/entries", { ...entryBody, handle: "a-entry" }),
      ],
      [
        "PUT entry",
        () => bOnA.put(`/collections/${collectionId}/entries/${entryId}`, { title: "BRAVO took over" }),
      ],
      ["PATCH entry", () => bOnA.patch("/collections/a-coll/entries/a-entry", { title: "BRAVO took over" })],
      ["DELETE entry", () => bOnA.delete(`/collections/${collectionId}/entries/${entryId}`)],
      ["GET /blueprints", () => bOnA.get("/blueprints")],
      ["GET /blueprints/:id", () => bOnA.get(`/blueprints/${blueprintId}`)],
      ["GET /blueprints/:handle", () => bOnA.get("/blueprints/a-bp")],
      ["POST /blueprints", () => bOnA.post("/blueprints", blueprintBody)],
      ["PUT /blueprints/:id", () => bOnA.put(`/blueprints/${blueprintId}`, { title: "BRAVO took over" })],
      ["PATCH /blueprints/:handle", () => bOnA.patch("/blueprints/a-bp", { title: "BRAVO took over" })],
      ["DELETE /blueprints/:id", () => bOnA.delete(`/blueprints/${freeBlueprintId}`)],
      ["GET unknown collection", () => bOnA.get("/collections/does-not-exist")],
      ["GET unknown entry", () => bOnA.get("/collections/a-coll/entries/does-not-exist")],
      ["DELETE unknown blueprint", () => bOnA.delete("/blueprints/does-not-exist")],
    ];
    const failures: string[] = [];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      if (response.status !== 403)
        failures.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
      else expectErrorBody(response, 403);
      expect(response.text, label).not.toContain(SECRET);
      expect(response.text, label).not.toContain(`${SECRET} body value`);
    }
    expect(failures).toEqual([]);
    expect(await snapshotA()).toEqual(before);
  });

  it("gets 403 even when the body it sends would not validate", async () => {
    const failures: string[] = [];
    for (const [label, attempt] of [
      ["POST /collections {}", () => bOnA.post("/collections", {})],
      ["POST entry {}", () => bOnA.post("/collections/a-coll/entries", {})],
      ["POST /blueprints {}", () => bOnA.post("/blueprints", {})],
      ["PUT /collections/:id bad routing", () => bOnA.put("/collections/a-coll", { routing: "" })],
    ] as const) {
      const response = await attempt();
      if (response.status !== 403)
        failures.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
      else expectErrorBody(response, 403);
      expect(response.text, label).not.toContain(SECRET);
    }
    expect(failures).toEqual([]);
  });

  it("gets 403 for an unknown account ID in the path, with a valid token", async () => {
    for (const accountId of ["acct_01doesnotexist0000000000000", "acct_", "not-an-account"]) {
      const client = api(server, { ...accountA, account_id: accountId });
      for (const response of [
        await client.get("/collections"),
        await client.get("/blueprints"),
        await client.get("/collections/a-coll"),
        await client.post("/collections", { name: "X", handle: "x", routing: "x/:handle" }),
        await client.delete("/collections/a-coll"),
      ]) {
        expectErrorBody(response, 403);
        expect(response.text).not.toContain(SECRET);
      }
    }
    expect((await a.get("/collections/a-coll")).status).toBe(200);
  });
});

describe("another account's records from one's own path", () => {
  it("answers 404 to A's IDs and handles on B's path and leaves A's records unchanged", async () => {
    const before = await snapshotA();
    const { collectionId, entryId, blueprintId, freeBlueprintId } = fixture;
    const attempts: Array<[string, () => Promise<ApiResponse>]> = [
      ["GET collection by A's ID", () => b.get(`/collections/${collectionId}`)],
      ["GET collection by A's handle", () => b.get("/collections/a-coll")],
      ["PUT collection by A's ID", () => b.put(`/collections/${collectionId}`, { name: "BRAVO took over" })],
      ["PATCH collection by A's handle", () => b.patch("/collections/a-coll", { name: "BRAVO took over" })],
      ["DELETE collection by A's ID", () => b.delete(`/collections/${collectionId}`)],
      ["DELETE collection by A's handle", () => b.delete("/collections/a-coll")],
      ["GET entries of A's collection", () => b.get(`/collections/${collectionId}/entries`)],
      ["GET entries of A's collection handle", () => b.get("/collections/a-coll/entries")],
      [
        "POST entry into A's collection",
        () => b.post(`/collections/${collectionId}/entries`, { handle: "x", title: "BRAVO" }),
      ],
      ["GET A's entry in A's collection", () => b.get(`/collections/${collectionId}/entries/${entryId}`)],
      ["GET A's entry via B's collection", () => b.get(`/collections/b-coll/entries/${entryId}`)],
      ["GET A's entry handle via B's collection", () => b.get("/collections/b-coll/entries/a-entry")],
      [
        "PUT A's entry via B's collection",
        () => b.put(`/collections/b-coll/entries/${entryId}`, { title: "BRAVO took over" }),
      ],
      [
        "PATCH A's entry in A's collection",
        () => b.patch(`/collections/${collectionId}/entries/${entryId}`, { title: "BRAVO" }),
      ],
      ["DELETE A's entry via B's collection", () => b.delete(`/collections/b-coll/entries/${entryId}`)],
      ["DELETE A's entry in A's collection", () => b.delete("/collections/a-coll/entries/a-entry")],
      ["GET A's blueprint by ID", () => b.get(`/blueprints/${blueprintId}`)],
      ["GET A's blueprint by handle", () => b.get("/blueprints/a-bp")],
      ["PUT A's blueprint by ID", () => b.put(`/blueprints/${blueprintId}`, { title: "BRAVO took over" })],
      ["PATCH A's blueprint by handle", () => b.patch("/blueprints/a-bp", { title: "BRAVO took over" })],
      ["DELETE A's blueprint by ID", () => b.delete(`/blueprints/${freeBlueprintId}`)],
      ["DELETE A's blueprint by handle", () => b.delete("/blueprints/a-free-bp")],
    ];
    const failures: string[] = [];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      if (response.status !== 404)
        failures.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
      else expectErrorBody(response, 404);
      expect(response.text, label).not.toContain(SECRET);
    }
    expect(failures).toEqual([]);
    expect(await snapshotA()).toEqual(before);
  });

  it("never lists A's records in B's lists", async () => {
    for (const path of [
      "/collections",
      "/collections?handle=a-coll",
      "/blueprints",
      "/blueprints?handle=a-bp",
      "/collections/b-coll/entries",
      "/collections/b-coll/entries?handle=a-entry",
    ]) {
      const response = await b.get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      expect(response.text, path).not.toContain(SECRET);
      expect(response.text, path).not.toContain(fixture.collectionId);
      expect(response.text, path).not.toContain(fixture.entryId);
      expect(response.text, path).not.toContain(fixture.blueprintId);
    }
    expect((await b.get("/collections?handle=a-coll")).body.data).toEqual([]);
    expect((await b.get("/collections/b-coll/entries?handle=a-entry")).body.data).toEqual([]);
  });

  it("lets B create records with A's handles as B's own, without touching A's", async () => {
    const before = await snapshotA();
    const blueprint = await b.post("/blueprints", { title: "Bravo bp", handle: "a-bp", fields: [] });
    expect(blueprint.status, blueprint.text).toBe(201);
    expect(blueprint.body.id).not.toBe(fixture.blueprintId);
    const collection = await b.post("/collections", {
      name: "Bravo copy",
      handle: "a-coll",
      routing: "bc/:handle",
    });
    expect(collection.status, collection.text).toBe(201);
    expect(collection.body.id).not.toBe(fixture.collectionId);
    expect(collection.body.entries_count).toBe(0);
    expect(collection.text).not.toContain(SECRET);
    const entries = await b.get("/collections/a-coll/entries");
    expect(entries.status).toBe(200);
    expect(entries.body.data).toEqual([]);
    expect(await snapshotA()).toEqual(before);
  });
});

describe("unauthenticated endpoints", () => {
  it("answers /healthz and /readyz with 200 without a token", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const response = await request(`${server.url}${path}`);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
    }
  });
});

describe("GraphQL", () => {
  const collectionsQuery = (accountId: string) =>
    `{ collections(account_id: "${accountId}") { data { handle name } pagination { total } } }`;

  it("answers 401 to POST /graphql without a token or with an unknown token", async () => {
    for (const token of [undefined, "cms_unknown"]) {
      const response = await graphql(token, collectionsQuery(accountA.account_id));
      expect(response.status, response.text).toBe(401);
      expect(response.text).not.toContain(SECRET);
      expectNoInternals(response.text);
    }
  });

  it("answers a collections query with the account's data for its own token", async () => {
    const response = await graphql(accountA.token, collectionsQuery(accountA.account_id));
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.collections.data).toEqual([{ handle: "a-coll", name: `${SECRET} collection` }]);
    expect(response.body.data.collections.pagination.total).toBe(1);
  });

  it("answers B's token on A's account_id with an error and none of A's data", async () => {
    for (const query of [
      collectionsQuery(accountA.account_id),
      `{ collection(account_id: "${accountA.account_id}", id: "a-coll") { id handle name } }`,
      `{ blueprints(account_id: "${accountA.account_id}") { data { handle title } } }`,
      `{ entries(account_id: "${accountA.account_id}", collection_id: "a-coll") { data { id handle title } } }`,
    ]) {
      const response = await graphql(accountB.token, query);
      expect(
        Array.isArray(response.body?.errors) && response.body.errors.length > 0,
        `${query}: ${response.text}`,
      ).toBe(true);
      expect(response.text, query).not.toContain(SECRET);
      expect(response.text, query).not.toContain(fixture.collectionId);
      expect(response.text, query).not.toContain(fixture.entryId);
      expectNoInternals(response.text);
      const data = response.body?.data;
      if (data != null) for (const value of Object.values(data)) expect(value).toBeNull();
    }
  });

  it("serves the GraphiQL page to a browser without a token", async () => {
    const response = await request(`${server.url}/graphql`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type") ?? "").toMatch(/text\/html/);
    expect(response.text.toLowerCase()).toContain("graphiql");
    expect(response.text).not.toContain(SECRET);
  });
});
