// Preview links (docs/api-notes.md, "Preview links"): a signed link on the account's site that
// shows an unpublished or scheduled entry in its template and layout, never cached, marked noindex, and
// refused with a 404 when forged, expired or opened on another account's site. The signing key lives in
// the database: two processes on one database accept each other's links.
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated, expectErrorBody, ISO } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { type SiteResponse, siteGet } from "./helpers/site.ts";

let server: TestServer;
/** A second process on the same database. */
let twin: TestServer;
/** A third one, whose links live one second (PREVIEW_LINK_TTL_SECONDS=1). */
let brief: TestServer | undefined;
let acme: TestAccount;
let client: Api;
let other: Api;
/** The links both processes made first, at once. */
let firstLinks: { url: string }[];
/** The signing key in the database once the server listened, before any request. */
let keyAtStart: string | undefined;

const tomorrow = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
const LAYOUT = `<html><body><main class="layout">{{ content_for_layout }}</main></body></html>`;

async function setUpSite(site: Api, marker: string): Promise<void> {
  await expectCreated(
    site.post("/templates", { template: { handle: "theme", title: "Theme", kind: "layout", html: LAYOUT } }),
  );
  await expectCreated(
    site.post("/templates", {
      template: { handle: "post", title: "Post", html: `<h1 class="${marker}">{{ entry.title }}</h1>` },
    }),
  );
  await expectCreated(
    site.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "blog/:handle",
      template_handle: "post",
      blueprint: { fields: [] },
    }),
  );
}

async function makeLink(on: Api, handle: string): Promise<{ url: string; expires_at: string }> {
  const made = await on.post(`/collections/posts/entries/${handle}/preview`);
  expect(made.status, made.text).toBe(200);
  expect(made.body).toEqual({ url: expect.any(String), expires_at: expect.stringMatching(ISO) });
  return made.body;
}

/** Opens a link on `host` (its own domain unless told) through `on`. */
function open(link: { url: string }, on = server, host?: string): Promise<SiteResponse> {
  const url = new URL(link.url);
  return siteGet(on, url.pathname, host ?? url.hostname);
}

function expectPreviewHeaders(page: SiteResponse): void {
  expect(page.headers["x-robots-tag"]).toBe("noindex");
  expect(page.headers["cache-control"]).toBe("private, no-store");
  expect(page.headers.etag).toBeUndefined();
}

function expectRefused(page: SiteResponse): void {
  expect(page.status).toBe(404);
  expect(page.text).toBe("Not found\n");
  expectPreviewHeaders(page);
}

/** The link with one character of its signature (the last part) changed at `index` from the end. */
function forged(link: { url: string }, fromEnd: number): { url: string } {
  const at = link.url.length - fromEnd;
  const changed = link.url[at] === "A" ? "B" : "A";
  return { url: `${link.url.slice(0, at)}${changed}${link.url.slice(at + 1)}` };
}

/** The `preview_signing_key` row, read from the server's database directly (no request is made). */
async function storedSigningKey(on: TestServer): Promise<string | undefined> {
  const sql = `SELECT "value" FROM "ServerSetting" WHERE "key" = 'preview_signing_key'`;
  if (!usesPostgres) {
    const db = new Database(join(on.env.CMS_DATA_DIR ?? "", "cms.db"), { readonly: true });
    try {
      return (db.prepare(sql).get() as { value: string } | undefined)?.value;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: on.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0]?.value;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  server = await startServer();
  keyAtStart = await storedSigningKey(server);
  const [a, b] = await Promise.all([createAccount(server, "Acme"), createAccount(server, "Other")]);
  acme = a;
  client = api(server, a);
  other = api(server, b);
  await Promise.all([setUpSite(client, "acme"), setUpSite(other, "other")]);
  await expectCreated(
    client.post("/collections/posts/entries", { handle: "draft", title: "Draft v1", published: false }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "soon",
      title: "Coming soon",
      published: true,
      published_at: tomorrow,
    }),
  );
  await expectCreated(
    other.post("/collections/posts/entries", { handle: "hello", title: "Hello", published: false }),
  );
  twin = await server.twin();
  // The first links of the installation, made by both processes at once: both sign with the stored key.
  firstLinks = await Promise.all([makeLink(client, "draft"), makeLink(api(twin, acme), "draft")]);
}, 60_000);

afterAll(async () => {
  await brief?.stop();
  await twin?.stop();
  await server?.stop();
});

describe("a preview link", () => {
  it("is on the account's domain, with the scheme and port of the request, for an hour", async () => {
    const before = Date.now();
    const link = await makeLink(client, "draft");
    const { port } = new URL(server.url);
    expect(link.url).toMatch(
      new RegExp(`^http://${acme.domain.replace(/\./g, "\\.")}:${port}/cms/preview/[A-Za-z0-9_.-]+$`),
    );
    const expires = Date.parse(link.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3601_000);
  });

  it("shows a draft in its template and layout, uncached: a change to the draft shows at once", async () => {
    expect((await siteGet(server, "/blog/draft", acme.domain)).status).toBe(404);
    const link = await makeLink(client, "draft");
    for (let i = 0; i < 2; i++) {
      const page = await open(link);
      expect(page.status, page.text).toBe(200);
      expect(page.text).toContain(`<main class="layout"><h1 class="acme">Draft v1</h1></main>`);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expectPreviewHeaders(page);
    }
    expect((await client.put("/collections/posts/entries/draft", { title: "Draft v2" })).status).toBe(200);
    const changed = await open(link);
    expect(changed.status).toBe(200);
    expect(changed.text).toContain(`<h1 class="acme">Draft v2</h1>`);
    expect(changed.text).not.toContain("Draft v1");
    expect((await siteGet(server, "/blog/draft", acme.domain)).status).toBe(404);
  });

  it("shows a scheduled entry", async () => {
    const page = await open(await makeLink(client, "soon"));
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`<main class="layout"><h1 class="acme">Coming soon</h1></main>`);
    expectPreviewHeaders(page);
  });

  it("is made through GraphQL too, whose schema does not offer the renderer's check", async () => {
    const graphql = (query: string) =>
      request(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${acme.token}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
    const made = await graphql(
      `mutation { entryPreviewLink(account_id: "${acme.account_id}", collection_id: "posts", id: "soon") { url expires_at } }`,
    );
    expect(made.body.errors, made.text).toBeUndefined();
    const page = await open(made.body.data.entryPreviewLink);
    expect(page.text).toContain("Coming soon");
    const token = new URL(made.body.data.entryPreviewLink.url).pathname.split("/").pop();
    const check = await graphql(`{ sitePreviewLink(token: "${token}") { handle } }`);
    expect(check.body.errors?.[0]?.message).toMatch(/Cannot query field "sitePreviewLink"/);
  });
});

describe("a preview link is refused", () => {
  it("with a changed signature, expiry or entry", async () => {
    const link = await makeLink(client, "draft");
    expect((await open(link)).status).toBe(200);
    for (const fromEnd of [1, 10, 43]) expectRefused(await open(forged(link, fromEnd)));
    // A later expiry, or another entry of the account, under the same signature.
    const [origin, token = ""] = link.url.split("/cms/preview/");
    const [accountId, entryId, expires, signature] = token.split(".");
    expectRefused(
      await open({
        url: `${origin}/cms/preview/${accountId}.${entryId}.${Number(expires) + 1}.${signature}`,
      }),
    );
    const soon = (await client.get("/collections/posts/entries/soon")).body.id as string;
    expectRefused(await open({ url: `${origin}/cms/preview/${accountId}.${soon}.${expires}.${signature}` }));
    expectRefused(await open({ url: `${origin}/cms/preview/not-a-token` }));
  });

  it("on another account's domain", async () => {
    const link = await makeLink(client, "draft");
    expectRefused(await open(link, server, other.account.domain));
    // And the other way round: the other account's own link works only on its own domain.
    const theirs = await makeLink(other, "hello");
    expect((await open(theirs)).text).toContain(`<h1 class="other">Hello</h1>`);
    expectRefused(await open(theirs, server, acme.domain));
  });

  it("once its entry is deleted", async () => {
    await expectCreated(
      client.post("/collections/posts/entries", { handle: "gone", title: "Gone", published: false }),
    );
    const link = await makeLink(client, "gone");
    expect((await open(link)).status).toBe(200);
    expect((await client.delete("/collections/posts/entries/gone")).status).toBe(204);
    expectRefused(await open(link));
  });

  it("to a read token, another account's token and an unknown entry", async () => {
    const created = await cms(server, [
      "token",
      "create",
      "--account",
      acme.account_id,
      "--scope",
      "read",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const reader = api(server, acme, JSON.parse(created.stdout).token);
    const denied = await reader.post("/collections/posts/entries/draft/preview");
    expectErrorBody(denied, 403);
    expect(denied.body.error).toBe("This token may only read");
    const foreign = api(server, acme, other.account.token);
    expectErrorBody(await foreign.post("/collections/posts/entries/draft/preview"), 403);
    const missing = await client.post("/collections/posts/entries/nothing/preview");
    expectErrorBody(missing, 404);
    expect(missing.body.error).toBe("Entry not found");
  });
});

describe("the signing key", () => {
  it("is made and kept in the database at the first start, before any request, and stays", async () => {
    // 32 random bytes in base64url.
    expect(keyAtStart).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The links made since, by both processes, were signed with it: it was not replaced.
    expect(await storedSigningKey(server)).toBe(keyAtStart);
  });
});

describe("two processes", () => {
  it("made their first links at once with one shared key: each opens on the other", async () => {
    const [fromServer, fromTwin] = firstLinks as [{ url: string }, { url: string }];
    for (const [link, on] of [
      [fromServer, twin],
      [fromTwin, server],
    ] as const) {
      const page = await open(link, on);
      expect(page.status, page.text).toBe(200);
      expect(page.text).toContain(`<h1 class="acme">`);
    }
  });

  it("refuse a link once it has expired (PREVIEW_LINK_TTL_SECONDS)", async () => {
    brief = await server.twin({ PREVIEW_LINK_TTL_SECONDS: "1" });
    const link = await makeLink(api(brief, acme), "draft");
    expect(Date.parse(link.expires_at) - Date.now()).toBeLessThanOrEqual(2000);
    expect((await open(link, server)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(link.expires_at) - Date.now() + 100));
    expectRefused(await open(link, server));
    expectRefused(await open(link, brief));
  });
});
