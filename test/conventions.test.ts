// Conventions common to all resources (content-api.md "Conventions", "Errors", "Limits"; decisions.md
// "REST decisions"): routing of unknown paths, JSON bodies and their limit, prefix IDs, `:id` as ID or
// handle, the list envelope and its page math, status codes, error bodies and timestamps.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import {
  expectErrorBody as expectDocumentedErrorBody,
  expectNoInternals,
  ISO,
} from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { readOnlyApi } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let pagesClient: Api;

/** Every error answer this file sees, checked once more at the end for leaked internals. */
const errorAnswers: Array<{ label: string; response: ApiResponse }> = [];

/** The shared error-body assertion, remembering the answer for the final sweep. */
function expectErrorBody(response: ApiResponse, status: number, label = "") {
  errorAnswers.push({ label, response });
  expectDocumentedErrorBody(response, status, label);
}

function paths(response: ApiResponse): string[] {
  return (response.body?.details ?? []).map((detail: { path: string }) => detail.path);
}

function rawJson(method: string, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return client.raw(`/v1/accounts/${account.account_id}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

function expectTimestamps(record: Record<string, unknown>, label: string) {
  for (const key of ["created_at", "updated_at"]) {
    expect(typeof record[key], `${label}.${key}`).toBe("string");
    expect(record[key], `${label}.${key}`).toMatch(ISO);
    expect(Number.isNaN(Date.parse(record[key] as string)), `${label}.${key}`).toBe(false);
  }
}

beforeAll(async () => {
  server = await startServer();
  const [main, pages] = await Promise.all([
    createAccount(server, "Conventions"),
    createAccount(server, "Pages"),
  ]);
  account = main;
  client = api(server, account);
  pagesClient = api(server, pages);

  const blueprint = await client.post("/blueprints", {
    title: "Article",
    handle: "article",
    fields: [
      { handle: "body", display: "Body", type: "text" },
      { handle: "summary", display: "Summary", type: "text" },
    ],
  });
  expect(blueprint.status, blueprint.text).toBe(201);
  const collection = await client.post("/collections", {
    name: "Articles",
    handle: "articles",
    routing: "articles/:handle",
    blueprint_handle: "article",
  });
  expect(collection.status, collection.text).toBe(201);
  const entry = await client.post("/collections/articles/entries", {
    handle: "hello",
    title: "Hello",
    body: "Body text",
    summary: "Short",
  });
  expect(entry.status, entry.text).toBe(201);
});

afterAll(() => server?.stop());

describe("routing", () => {
  it("answers unknown routes under /v1 with 404 and the error body, for a valid token", async () => {
    const base = `/v1/accounts/${account.account_id}`;
    for (const [method, path] of [
      ["GET", "/v1"],
      ["GET", "/v1/nothing"],
      ["GET", "/v1/accounts"],
      ["GET", `${base}`],
      ["GET", `${base}/nothing`],
      ["GET", `${base}/collections/articles/entries/hello/extra`],
      ["POST", `${base}/collections/articles/nothing`],
      ["DELETE", `${base}/collections`],
      ["PUT", `${base}/blueprints`],
      ["GET", "/v2/accounts/x/collections"],
    ] as const) {
      const response = await client.raw(path, { method });
      if (path.startsWith("/v1")) expectErrorBody(response, 404, `${method} ${path}`);
      else expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it("answers a read-scoped token 404 on an unknown path, and 403 on a write route before its arguments", async () => {
    const reader = await readOnlyApi(server, account);
    const base = `/v1/accounts/${account.account_id}`;
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const unknown = await reader.raw(`${base}/collections/articles/nothing`, { method });
      expectErrorBody(unknown, 404, `${method} unknown path`);
    }
    // `abc` is no revision number: a write token would get a 422 on `revision`.
    const restore = await reader.post("/collections/articles/entries/hello/revisions/abc/restore");
    expectErrorBody(restore, 403, "restore with a read token");
    expect(restore.body.error).toBe("This token may only read");
    expect((await reader.get("/collections/articles/entries/hello/revisions/abc")).body.details).toEqual([
      { path: "revision", message: "must be a whole number between -2147483648 and 2147483647" },
    ]);
  });

  it("answers unknown paths outside /v1 with 404", async () => {
    for (const path of ["/nothing-here", "/v1x", "/api/collections", "/graphqlx"]) {
      const response = await request(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expectNoInternals(response.text, path);
    }
  });
});

describe("request bodies", () => {
  it("answers malformed JSON with 400 and details path body", async () => {
    for (const [method, path] of [
      ["POST", "/collections"],
      ["PUT", "/collections/articles"],
      ["PATCH", "/collections/articles"],
      ["POST", "/collections/articles/entries"],
      ["PUT", "/collections/articles/entries/hello"],
      ["POST", "/blueprints"],
      ["PATCH", "/blueprints/article"],
    ] as const) {
      for (const body of ['{"name": "Broken"', "{name: 'x'}", "not json", '{"a":1}}']) {
        const response = await rawJson(method, path, body);
        expectErrorBody(response, 400, `${method} ${path} ${body}`);
        expect(paths(response), `${method} ${path} ${body}`).toContain("body");
      }
    }
    expect((await client.get("/collections/articles")).body.name).toBe("Articles");
  });

  it("answers a JSON body that is not an object with 400", async () => {
    for (const body of [
      "[]",
      JSON.stringify([{ name: "X", handle: "x", routing: "x/:handle" }]),
      '"text"',
      "42",
      "null",
      "true",
    ]) {
      const response = await rawJson("POST", "/collections", body);
      expectErrorBody(response, 400, `POST /collections ${body}`);
      expect(paths(response), body).toContain("body");
    }
    const put = await rawJson("PUT", "/collections/articles", "[]");
    expectErrorBody(put, 400, "PUT []");
  });

  // Found by test/fuzz.test.ts: re-encoding a body nested 5,000 levels deep overflowed the stack (500).
  it("answers a body nested more than 64 levels deep with 400 on body, and takes 64", async () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth - 1)}1${"}".repeat(depth - 1)}`;
    for (const body of [
      `{"name":"X","handle":"x","routing":"x/:handle","v":${deep(5_000)}}`,
      `{"name":"X","handle":"x","routing":"x/:handle","v":${"[".repeat(3_000)}${"]".repeat(3_000)}}`,
      deep(66),
    ]) {
      const response = await rawJson("POST", "/collections", body);
      expectErrorBody(response, 400, body.slice(0, 60));
      expect(paths(response)).toEqual(["body"]);
    }
    const fits = await rawJson("PUT", "/collections/articles/entries/hello", `{"a":${deep(64)}}`);
    expect(fits.status, fits.text).toBe(200);
  });

  // Found by test/fuzz.test.ts: a JSON "\ud800" escape is valid JSON but no Unicode text; it reached the
  // database driver and failed there (500).
  it("answers an unpaired surrogate in a body string or key with 422 on that field", async () => {
    for (const [body, path] of [
      ['{"template_handle":"\\ud800"}', "template_handle"],
      ['{"name":"a\\udfffb"}', "name"],
    ] as const) {
      const response = await rawJson("PUT", "/collections/articles", body);
      expectErrorBody(response, 422, body);
      expect(paths(response), body).toEqual([path]);
    }
    const paired = await rawJson("PUT", "/collections/articles", '{"name":"Articles \\ud83d\\ude00"}');
    expect(paired.body.name, paired.text).toBe("Articles 😀");
    expect((await client.put("/collections/articles", { name: "Articles" })).status).toBe(200);
  });

  it("answers a body over 2 MB with 413 and the error body", async () => {
    const big = JSON.stringify({
      name: "Big",
      handle: "big",
      routing: "big/:handle",
      padding: "x".repeat(2 * 1024 * 1024 + 10),
    });
    const response = await rawJson("POST", "/collections", big);
    expectErrorBody(response, 413, "POST 2 MB");
    const put = await rawJson("PUT", "/collections/articles", big);
    expectErrorBody(put, 413, "PUT 2 MB");
    expect((await client.get("/collections/big")).status).toBe(404);
  });

  it("answers a chunked body over 2 MB with 413 and keeps the connection usable or closes it", async () => {
    // A raw socket, so the exchange is exact: a chunked POST without Content-Length, then a second
    // request on the same connection, which must be answered (or the server must close the connection).
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    let closed = false;
    socket.on("data", (data) => (received += data.toString("latin1")));
    socket.on("close", () => (closed = true));
    socket.on("error", () => (closed = true));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `POST /v1/accounts/${account.account_id}/collections HTTP/1.1\r\nHost: localhost\r\n` +
        `Authorization: Bearer ${account.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const send = (text: string) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        const flushed = socket.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
        if (flushed) resolve();
        else socket.once("drain", () => resolve());
      });
    await send('{"name":"Stream","handle":"stream","routing":"s/:handle","padding":[');
    for (let i = 0; i < 40 && !closed; i++) await send(`"${"y".repeat(64 * 1024)}",`);
    await send('""]}');
    if (!closed) socket.write("0\r\n\r\n");
    const until = async (done: () => boolean, ms: number) => {
      for (const start = Date.now(); !done() && Date.now() - start < ms; )
        await new Promise((r) => setTimeout(r, 25));
    };
    await until(() => /\r\n0\r\n\r\n$/.test(received) || closed, 5_000);
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    const body = received.slice(received.indexOf("\r\n\r\n") + 4);
    expect(body).toContain('"error"');
    expect(body).toContain('"details"');
    const first = received.length;
    if (!closed) socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await until(() => closed || /HTTP\/1\.1 200/.test(received.slice(first)), 3_000);
    const answered = /HTTP\/1\.1 200/.test(received.slice(first));
    socket.destroy();
    expect(
      answered || closed,
      `after the 413 the connection stays open (${received.split("\r\n").find((l) => /^connection:/i.test(l))}) but the next request on it is not answered`,
    ).toBe(true);
    expect((await client.get("/collections/stream")).status).toBe(404);
  });

  it("accepts a body just under 2 MB", async () => {
    const body = {
      name: "Almost",
      handle: "almost",
      routing: "almost/:handle",
      padding: "x".repeat(1024 * 1024 + 512 * 1024),
    };
    const response = await client.post("/collections", body);
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(response.body.handle).toBe("almost");
    expect((await client.delete("/collections/almost")).status).toBe(204);
  });

  it("reads a body of declared length that arrives in pieces, a character split between them", async () => {
    // A body with Content-Length is read in one call (src/http/limited-body.ts): every piece, and the UTF-8
    // of "é" (two bytes) cut between two of them, must come out whole.
    const bytes = Buffer.from(
      JSON.stringify({ name: "Café pieces", handle: "pieces", routing: "p/:handle" }),
    );
    const cut = bytes.indexOf(Buffer.from("é")) + 1;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (data) => (received += data.toString("utf8")));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `POST /v1/accounts/${account.account_id}/collections HTTP/1.1\r\nHost: localhost\r\n` +
        `Authorization: Bearer ${account.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
    );
    for (const piece of [bytes.subarray(0, 10), bytes.subarray(10, cut), bytes.subarray(cut)]) {
      socket.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 201/);
    expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toMatchObject({
      name: "Café pieces",
      handle: "pieces",
    });
    expect((await client.delete("/collections/pieces")).status).toBe(204);
  });
});

describe("prefix IDs and :id", () => {
  it("gives collections, entries, blueprints and accounts their prefix IDs", async () => {
    expect(account.account_id).toMatch(/^acct_[A-Za-z0-9]+$/);
    const collection = await client.get("/collections/articles");
    expect(collection.body.id).toMatch(/^clctn_[A-Za-z0-9]+$/);
    const entry = await client.get("/collections/articles/entries/hello");
    expect(entry.body.id).toMatch(/^cnety_[A-Za-z0-9]+$/);
    const blueprint = await client.get("/blueprints/article");
    expect(blueprint.body.id).toMatch(/^blprt_[A-Za-z0-9]+$/);
    expect(collection.body.blueprints[0].id).toMatch(/^blprt_/);

    const inline = await client.post("/collections", {
      name: "Inline",
      handle: "inline",
      routing: "inline/:handle",
      blueprint: { fields: [{ handle: "body", display: "Body", type: "text" }] },
    });
    expect(inline.status, inline.text).toBe(201);
    expect(inline.body.id).toMatch(/^clctn_/);
    expect(inline.body.blueprints).toHaveLength(1);
    expect(inline.body.blueprints[0].id).toMatch(/^blprt_/);
  });

  it("accepts the prefix ID or the handle for :id, with the same answer", async () => {
    const collection = (await client.get("/collections/articles")).body;
    const entry = (await client.get("/collections/articles/entries/hello")).body;
    const blueprint = (await client.get("/blueprints/article")).body;

    expect((await client.get(`/collections/${collection.id}`)).body).toEqual(collection);
    for (const collectionRef of [collection.id, "articles"]) {
      for (const entryRef of [entry.id, "hello"]) {
        const read = await client.get(`/collections/${collectionRef}/entries/${entryRef}`);
        expect(read.status, `${collectionRef}/${entryRef}`).toBe(200);
        expect(read.body).toEqual(entry);
      }
      const list = await client.get(`/collections/${collectionRef}/entries`);
      expect(list.status).toBe(200);
      expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([entry.id]);
    }
    expect((await client.get(`/blueprints/${blueprint.id}`)).body).toEqual(blueprint);

    const byHandle = await client.put("/collections/articles", { name: "Articles (by handle)" });
    expect(byHandle.status).toBe(200);
    expect(byHandle.body.id).toBe(collection.id);
    const byId = await client.put(`/collections/${collection.id}`, { name: "Articles" });
    expect(byId.status).toBe(200);
    expect(byId.body.name).toBe("Articles");

    const entryById = await client.put(`/collections/${collection.id}/entries/${entry.id}`, {
      summary: "By ID",
    });
    expect(entryById.status, entryById.text).toBe(200);
    expect(entryById.body.summary).toBe("By ID");

    for (const missing of [
      "/collections/clctn_00000000000000000000000000",
      "/collections/no-such-collection",
    ]) {
      expectErrorBody(await client.get(missing), 404, `GET ${missing}`);
    }
    expectErrorBody(
      await client.get("/collections/articles/entries/cnety_00000000000000000000000000"),
      404,
      "entry id",
    );
    expectErrorBody(await client.get("/collections/articles/entries/no-such-entry"), 404, "entry handle");
    expectErrorBody(await client.get("/blueprints/blprt_00000000000000000000000000"), 404, "blueprint id");
    expectErrorBody(await client.get("/blueprints/no-such-blueprint"), 404, "blueprint handle");
  });
});

describe("lists", () => {
  it("pages 21 collections as 20 + 1 with the documented envelope", async () => {
    const names = Array.from({ length: 21 }, (_, i) => `Collection ${String(i + 1).padStart(2, "0")}`);
    for (const [i, name] of names.entries()) {
      const created = await pagesClient.post("/collections", {
        name,
        handle: `c-${i + 1}`,
        routing: `c${i + 1}/:handle`,
      });
      expect(created.status, created.text).toBe(201);
    }
    const first = await pagesClient.get("/collections");
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["data", "pagination"]);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 21,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(names.slice(0, 20));

    const explicit = await pagesClient.get("/collections?page=1");
    expect(explicit.body).toEqual(first.body);

    const second = await pagesClient.get("/collections?page=2");
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].name).toBe(names[20]);
    expect(second.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: 21,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });

    const beyond = await pagesClient.get("/collections?page=3");
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({ page: 3, total: 21, total_pages: 2, next_page: null });

    const filtered = await pagesClient.get("/collections?handle=c-7");
    expect(filtered.body.data.map((c: { handle: string }) => c.handle)).toEqual(["c-7"]);
    expect(filtered.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const none = await pagesClient.get("/collections?handle=c-");
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it("uses the same envelope for entries and the blueprint envelope for blueprints", async () => {
    const entries = await client.get("/collections/articles/entries");
    expect(entries.status).toBe(200);
    expect(entries.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const blueprints = await client.get("/blueprints");
    expect(blueprints.status).toBe(200);
    expect(blueprints.body.pagination).toEqual({
      current_page: 1,
      total_pages: 1,
      total_count: blueprints.body.data.length,
      per_page: 25,
    });
  });

  it("answers page=0 and other bad pages with 422 on path page", async () => {
    for (const path of [
      "/collections?page=0",
      "/collections?page=-1",
      "/collections/articles/entries?page=0",
      "/blueprints?page=0",
    ]) {
      const response = await client.get(path);
      expectErrorBody(response, 422, path);
      expect(paths(response), path).toEqual(["page"]);
    }
    for (const path of [
      "/collections?page=abc",
      "/collections?page=1.5",
      "/collections?page=99999999999999",
    ]) {
      const response = await client.get(path);
      expect([400, 422], `${path}: ${response.status} ${response.text}`).toContain(response.status);
      expectErrorBody(response, response.status, path);
    }
  });
});

describe("status codes", () => {
  it("answers POST that creates with 201 and POST with an existing handle with 200, updating the record", async () => {
    const created = await client.post("/collections", {
      name: "Events",
      handle: "events",
      routing: "events/:handle",
      blueprint: { fields: [{ handle: "body", display: "Body", type: "text" }] },
    });
    expect(created.status, created.text).toBe(201);
    const again = await client.post("/collections", {
      name: "Events (renamed)",
      handle: "events",
      routing: "events/:handle",
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect(again.body.name).toBe("Events (renamed)");
    expect((await client.get("/collections?handle=events")).body.pagination.total).toBe(1);

    const entry = await client.post("/collections/events/entries", { handle: "launch", title: "Launch" });
    expect(entry.status, entry.text).toBe(201);
    const entryAgain = await client.post("/collections/events/entries", {
      handle: "launch",
      title: "Launch day",
    });
    expect(entryAgain.status, entryAgain.text).toBe(200);
    expect(entryAgain.body.id).toBe(entry.body.id);
    expect(entryAgain.body.title).toBe("Launch day");
    expect((await client.get("/collections/events/entries")).body.pagination.total).toBe(1);

    const blueprint = await client.post("/blueprints", { title: "Event", handle: "event", fields: [] });
    expect(blueprint.status, blueprint.text).toBe(201);
  });

  it("answers PATCH like PUT: 200, only the sent fields change", async () => {
    const before = (await client.get("/collections/articles")).body;
    const put = await client.put("/collections/articles", { name: "Via PUT" });
    expect(put.status, put.text).toBe(200);
    const patch = await client.patch("/collections/articles", { name: "Via PATCH" });
    expect(patch.status, patch.text).toBe(200);
    const after = (await client.get("/collections/articles")).body;
    expect(patch.body).toEqual(after);
    const { name: _n1, updated_at: _u1, blueprints: _b1, ...restBefore } = before;
    const { name: _n2, updated_at: _u2, blueprints: _b2, ...restAfter } = after;
    expect(after.name).toBe("Via PATCH");
    expect(restAfter).toEqual(restBefore);
    await client.put("/collections/articles", { name: "Articles" });

    const entryBefore = (await client.get("/collections/articles/entries/hello")).body;
    const entryPatch = await client.patch("/collections/articles/entries/hello", { title: "Hello (PATCH)" });
    expect(entryPatch.status, entryPatch.text).toBe(200);
    expect(entryPatch.body).toMatchObject({
      ...entryBefore,
      title: "Hello (PATCH)",
      updated_at: entryPatch.body.updated_at,
    });
    const entryPut = await client.put("/collections/articles/entries/hello", { summary: "Via PUT" });
    expect(entryPut.status).toBe(200);
    expect(entryPut.body).toMatchObject({
      title: "Hello (PATCH)",
      body: entryBefore.body,
      summary: "Via PUT",
    });

    const blueprintPatch = await client.patch("/blueprints/event", { title: "Event (PATCH)" });
    expect(blueprintPatch.status, blueprintPatch.text).toBe(200);
    expect(blueprintPatch.body.title).toBe("Event (PATCH)");
    expect((await client.get("/blueprints/event")).body.title).toBe("Event (PATCH)");
  });

  it("answers DELETE with 204 and an empty body", async () => {
    const trash = await client.post("/collections", {
      name: "Trash",
      handle: "trash",
      routing: "trash/:handle",
      blueprint: { fields: [{ handle: "body", display: "Body", type: "text" }] },
    });
    expect(trash.status, trash.text).toBe(201);
    for (const handle of ["one", "two"]) {
      const entry = await client.post("/collections/trash/entries", { handle, title: handle });
      expect(entry.status, entry.text).toBe(201);
    }
    expect((await client.post("/blueprints", { title: "Scrap", handle: "scrap", fields: [] })).status).toBe(
      201,
    );

    const entry = await client.delete("/collections/trash/entries/one");
    expect(entry.status).toBe(204);
    expect(entry.text).toBe("");
    expectErrorBody(await client.get("/collections/trash/entries/one"), 404, "deleted entry");

    const collectionId = (await client.get("/collections/trash")).body.id;
    const collection = await client.delete(`/collections/${collectionId}`);
    expect(collection.status).toBe(204);
    expect(collection.text).toBe("");
    expectErrorBody(await client.get("/collections/trash"), 404, "deleted collection");
    expectErrorBody(await client.get("/collections/trash/entries/two"), 404, "entry of deleted collection");

    const blueprint = await client.delete("/blueprints/scrap");
    expect(blueprint.status).toBe(204);
    expect(blueprint.text).toBe("");
    expectErrorBody(await client.get("/blueprints/scrap"), 404, "deleted blueprint");

    expectErrorBody(await client.delete("/collections/trash"), 404, "delete twice");
  });
});

describe("representation", () => {
  it("writes timestamps as ISO 8601 strings", async () => {
    const collection = (await client.get("/collections/articles")).body;
    expectTimestamps(collection, "collection");
    for (const blueprint of collection.blueprints) expectTimestamps(blueprint, "collection.blueprints[]");
    expectTimestamps((await client.get("/collections/articles/entries/hello")).body, "entry");
    expectTimestamps((await client.get("/blueprints/article")).body, "blueprint");
    for (const item of (await client.get("/collections")).body.data) expectTimestamps(item, "collections[]");
    for (const item of (await client.get("/collections/articles/entries")).body.data)
      expectTimestamps(item, "entries[]");
    for (const item of (await client.get("/blueprints")).body.data) expectTimestamps(item, "blueprints[]");

    const entry = await client.post("/collections/articles/entries", {
      handle: "dated",
      title: "Dated",
      published_at: "2024-03-05T10:20:30+02:00",
    });
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body.published_at).toMatch(ISO);
    expect(Date.parse(entry.body.published_at)).toBe(Date.parse("2024-03-05T08:20:30Z"));
    expect(Date.parse(entry.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(entry.body.created_at));
  });

  it("never puts a stack trace or internal message in an error body", async () => {
    const answers: Array<[string, ApiResponse]> = [
      ["invalid routing", await client.post("/collections", { name: "X", handle: "x", routing: "" })],
      [
        "handle with spaces",
        await client.post("/collections", { name: "X", handle: "Not A Handle", routing: "x/:handle" }),
      ],
      ["wrong types", await client.post("/collections", { name: 5, handle: ["x"], routing: { a: 1 } })],
      [
        "unparseable published_at",
        await client.post("/collections/articles/entries", {
          handle: "bad-date",
          title: "Bad",
          published_at: "not a date",
        }),
      ],
      [
        "unknown field type",
        await client.post("/blueprints", {
          title: "Bad",
          handle: "bad",
          fields: [{ handle: "f", display: "F", type: "nope" }],
        }),
      ],
      [
        "duplicate blueprint handle",
        await client.post("/blueprints", { title: "Article again", handle: "article", fields: [] }),
      ],
      [
        "unknown template",
        await client.put("/collections/articles", { template_handle: "no-such-template" }),
      ],
      ["long id", await client.get(`/collections/${"x".repeat(5000)}`)],
      ["non-ASCII id", await client.get("/collections/%E2%98%83")],
      ["NUL byte in id", await client.get("/collections/a%00b")],
      ["NUL byte in entry id", await client.get("/collections/articles/entries/a%00b")],
      ["entries of unknown collection", await client.get("/collections/nope/entries")],
      ["delete blueprint in use", await client.delete("/blueprints/article")],
    ];
    const failures: string[] = [];
    for (const [label, response] of answers) {
      if (response.status < 400 || response.status >= 500)
        failures.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
      else expectErrorBody(response, response.status, label);
      expectNoInternals(response.text, label);
    }
    const filter = await client.get("/collections?handle=a%00b");
    if (filter.status !== 200 && filter.status !== 422)
      failures.push(`NUL byte in handle filter: ${filter.status} ${filter.text.slice(0, 200)}`);
    expectNoInternals(filter.text, "NUL byte in handle filter");
    // A NUL character inside a JSON string is valid JSON: it is stored or refused with a 422, never a 500.
    const nul = await client.post("/collections", {
      name: "Nul\u0000name",
      handle: "nul-name",
      routing: "nul/:handle",
    });
    if (nul.status !== 201 && nul.status !== 422)
      failures.push(`NUL in a body string: ${nul.status} ${nul.text.slice(0, 200)}`);
    expectNoInternals(nul.text, "NUL in a body string");
    expect(failures).toEqual([]);
    const byLabel = new Map(answers);
    for (const [label, path] of [
      ["invalid routing", "routing"],
      ["unparseable published_at", "published_at"],
      ["unknown template", "template_handle"],
    ] as const) {
      const response = byLabel.get(label) as ApiResponse;
      expect(response.status, `${label}: ${response.text}`).toBe(422);
      expect(paths(response), label).toContain(path);
    }

    expect(errorAnswers.length).toBeGreaterThan(0);
    for (const { label, response } of errorAnswers) expectNoInternals(response.text, label);
  });
});
