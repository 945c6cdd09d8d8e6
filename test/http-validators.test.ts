// HTTP validators (docs/api-notes.md, "Caching and validators"): REST GETs, GraphQL GETs and site pages
// carry an ETag made from the data generation and the request, If-None-Match naming it is a 304 with no
// body before any operation runs, and any write makes it stale; REST writes that send a stale If-Match
// are refused with 412 (path `if_match`) and change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectError } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { readOnlyApi } from "./helpers/fixtures.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

const TAG = /^"[A-Za-z0-9_-]{27}"$/;
const API_CACHING = "private, no-cache";

let server: TestServer;
let account: TestAccount;
let client: Api;

const entryPath = "/collections/notes/entries/hello";
const getEntry = (headers: Record<string, string> = {}, via = client) =>
  via.raw(`/v1/accounts/${account.account_id}${entryPath}`, { headers });
const write = (method: string, headers: Record<string, string>, body?: unknown, path = entryPath) =>
  client.raw(`/v1/accounts/${account.account_id}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const TITLE_QUERY = `query Note($account: ID!) {
  entry(account_id: $account, collection_id: "notes", id: "hello") { title }
}`;
function graphqlGet(headers: Record<string, string> = {}, query = TITLE_QUERY) {
  const params = new URLSearchParams({ query, variables: JSON.stringify({ account: account.account_id }) });
  return request(`${server.url}/graphql?${params}`, {
    headers: { authorization: `Bearer ${account.token}`, accept: "application/json", ...headers },
  });
}
const sitePage = (headers: Record<string, string> = {}) =>
  siteGet(server, "/notes/hello", account.domain, headers);

function expectTagged(response: ApiResponse, label: string): string {
  expect(response.status, `${label}: ${response.text}`).toBe(200);
  const etag = response.headers.get("etag") ?? "";
  expect(etag, label).toMatch(TAG);
  expect(response.headers.get("cache-control"), label).toBe(API_CACHING);
  return etag;
}

function expectNotModified(response: ApiResponse, etag: string, label: string): void {
  expect(response.status, `${label}: ${response.text}`).toBe(304);
  expect(response.text, label).toBe("");
  expect(response.headers.get("etag"), label).toBe(etag);
  expect(response.headers.get("cache-control"), label).toBe(API_CACHING);
  // Nothing was read: no kept answer was looked up, none made.
  expect(response.headers.get("x-cache"), label).toBeNull();
}

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Validators");
  client = api(server, account);
  await seedNotesSite(client);
});

afterAll(async () => {
  await server?.stop();
});

describe("If-None-Match", () => {
  it("answers a REST GET's own tag with 304 and no body, a changed one with the answer", async () => {
    const first = await getEntry();
    const etag = expectTagged(first, "first read");
    expect(first.body.title).toBe("Hello");
    expect((await getEntry()).headers.get("etag")).toBe(etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`])
      expectNotModified(await getEntry({ "if-none-match": ifNoneMatch }), etag, ifNoneMatch);
    const head = await client.raw(`/v1/accounts/${account.account_id}${entryPath}`, {
      method: "HEAD",
      headers: { "if-none-match": etag },
    });
    expect(head.status).toBe(304);
    const other = await getEntry({ "if-none-match": '"other"' });
    expect(other.status).toBe(200);
    expect(other.body.title).toBe("Hello");
    // Another query string is another read, with its own tag.
    const list = await client.get("/collections/notes/entries");
    expect(expectTagged(list, "list")).not.toBe(etag);
  });

  it("gives each token its own tags", async () => {
    const reader = await readOnlyApi(server, account);
    const etag = expectTagged(await getEntry(), "owner");
    const theirs = await getEntry({ "if-none-match": etag }, reader);
    expect(expectTagged(theirs, "reader")).not.toBe(etag);
    expect(theirs.body.title).toBe("Hello");
    // A tag is no use without a valid token.
    const anonymous = await request(`${server.url}/v1/accounts/${account.account_id}${entryPath}`, {
      headers: { "if-none-match": etag },
    });
    expectError(anonymous, 401);
  });

  it("answers a GraphQL GET's own tag with 304, and other parameters with their own tag", async () => {
    const first = await graphqlGet();
    const etag = expectTagged(first, "graphql");
    expect(first.body.data.entry.title).toBe("Hello");
    expectNotModified(await graphqlGet({ "if-none-match": etag }), etag, "graphql again");
    const otherQuery = await graphqlGet({ "if-none-match": etag }, TITLE_QUERY.replace("title", "handle"));
    expect(expectTagged(otherQuery, "other query")).not.toBe(etag);
    expect(otherQuery.body.data.entry.handle).toBe("hello");
  });

  it("answers a site page's own tag with 304, with the page's Cache-Control", async () => {
    const first = await sitePage();
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(TAG);
    expect(first.headers["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    const again = await sitePage({ "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    // `*` matches only a page that exists.
    for (const ifNoneMatch of [undefined, "*", `"other", *`]) {
      const headers: Record<string, string> = ifNoneMatch ? { "if-none-match": ifNoneMatch } : {};
      const missing = await siteGet(server, "/notes/nowhere", account.domain, headers);
      expect(missing.status, ifNoneMatch).toBe(404);
      expect(missing.headers.etag, ifNoneMatch).toBeUndefined();
    }
    expect((await sitePage({ "if-none-match": `"other", *` })).status).toBe(304);
  });

  it("answers the old tags with the new answers after a write", async () => {
    const rest = expectTagged(await getEntry(), "rest");
    const graphql = expectTagged(await graphqlGet(), "graphql");
    const page = String((await sitePage()).headers.etag);
    const updated = await client.put(entryPath, { title: "Changed" });
    expect(updated.status, updated.text).toBe(200);

    const restAfter = await getEntry({ "if-none-match": rest });
    expect(expectTagged(restAfter, "rest after")).not.toBe(rest);
    expect(restAfter.body.title).toBe("Changed");
    const graphqlAfter = await graphqlGet({ "if-none-match": graphql });
    expect(expectTagged(graphqlAfter, "graphql after")).not.toBe(graphql);
    expect(graphqlAfter.body.data.entry.title).toBe("Changed");
    const pageAfter = await sitePage({ "if-none-match": page });
    expect(pageAfter.status).toBe(200);
    expect(pageAfter.text).toContain("<p>Changed</p>");
    expect(pageAfter.headers.etag).not.toBe(page);
    // Conservative: a write anywhere in the account makes every tag of it stale.
    const fresh = expectTagged(await getEntry(), "fresh");
    await client.post("/collections/notes/entries", { handle: "other", title: "Other" });
    expect(expectTagged(await getEntry({ "if-none-match": fresh }), "after another write")).not.toBe(fresh);
  });
});

describe("If-Match", () => {
  it("refuses a stale tag with 412 on PUT, PATCH and DELETE, changing nothing", async () => {
    const stale = expectTagged(await getEntry(), "read");
    const before = (await getEntry()).body;
    // Another editor's write since the read.
    expect((await client.post("/collections/notes/entries", { handle: "x1", title: "X" })).status).toBe(201);
    for (const [method, body] of [
      ["PUT", { title: "Lost update" }],
      ["PATCH", { title: "Lost update" }],
      ["DELETE", undefined],
    ] as const) {
      const refused = await write(method, { "if-match": stale }, body);
      expectError(refused, 412, "if_match");
      const after = await getEntry();
      expect(after.status, method).toBe(200);
      expect(after.body, method).toEqual(before);
    }
    // A weak tag never matches (strong comparison), nor does a made-up one.
    const current = expectTagged(await getEntry(), "current");
    expectError(await write("PUT", { "if-match": `W/${current}` }, { title: "Weak" }), 412, "if_match");
    expectError(await write("PATCH", { "if-match": '"made-up"' }, { title: "Made up" }), 412, "if_match");
    expect((await getEntry()).body.title).toBe(before.title);
  });

  it("lets a write with the current tag, one of a list, or `*` through", async () => {
    const current = expectTagged(await getEntry(), "read");
    const put = await write("PUT", { "if-match": current }, { title: "Edited" });
    expect(put.status, put.text).toBe(200);
    expect(put.body.title).toBe("Edited");
    const next = expectTagged(await getEntry(), "after the PUT");
    expect(next).not.toBe(current);
    const patch = await write("PATCH", { "if-match": `"other", ${next}` }, { title: "Patched" });
    expect(patch.status, patch.text).toBe(200);
    const any = await write("PATCH", { "if-match": "*" }, { title: "Any" });
    expect(any.status, any.text).toBe(200);
    expect((await getEntry()).body.title).toBe("Any");
    // `*` on a resource that does not exist: the write's own 404.
    const gone = await write("PUT", { "if-match": "*" }, { title: "No" }, "/collections/notes/entries/nope");
    expectError(gone, 404);
  });

  it("deletes with the current tag, from a read of the path with a trailing slash too", async () => {
    expect((await client.post("/collections/notes/entries", { handle: "doomed", title: "D" })).status).toBe(
      201,
    );
    const path = "/collections/notes/entries/doomed";
    const read = await client.get(`${path}/`);
    const deleted = await write("DELETE", { "if-match": expectTagged(read, "read") }, undefined, path);
    expect(deleted.status, deleted.text).toBe(204);
    expectError(await client.get(path), 404);
  });

  it("checks who may write before the tag", async () => {
    const reader = await readOnlyApi(server, account);
    const refused = await reader.raw(`/v1/accounts/${account.account_id}${entryPath}`, {
      method: "PUT",
      headers: { "content-type": "application/json", "if-match": '"stale"' },
      body: JSON.stringify({ title: "Reader" }),
    });
    expectError(refused, 403);
  });
});

describe("a server counting its queries, with its own site caching", () => {
  let counting: TestServer;
  let owner: TestAccount;

  beforeAll(async () => {
    counting = await startServer({
      CMS_COUNT_QUERIES: "1",
      SITE_S_MAXAGE: "120",
      SITE_STALE_WHILE_REVALIDATE: "30",
    });
    owner = await createAccount(counting, "Counted");
    await seedNotesSite(api(counting, owner));
  });

  afterAll(async () => {
    await counting?.stop();
  });

  it("answers 304 without running the read's statements", async () => {
    const own = api(counting, owner);
    const first = await own.get(entryPath);
    const etag = expectTagged(first, "read");
    const statements = Number(first.headers.get("x-query-count"));
    expect(statements).toBeGreaterThan(0);
    const revalidated = await own.raw(`/v1/accounts/${owner.account_id}${entryPath}`, {
      headers: { "if-none-match": etag },
    });
    expect(revalidated.status).toBe(304);
    expect(Number(revalidated.headers.get("x-query-count"))).toBeLessThan(statements);
  });

  it("sends site pages with SITE_S_MAXAGE and SITE_STALE_WHILE_REVALIDATE", async () => {
    const page = await siteGet(counting, "/notes/hello", owner.domain);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("public, s-maxage=120, stale-while-revalidate=30");
  });
});
