// The site import (import half): POST /v1/accounts/:account_id/import and `cms import`. A
// small site is built in account A over REST and GraphQL and exported; importing the export into fresh
// accounts must give the same REST answers and the same rendered pages (IDs, times and the domain
// aside), twice changing nothing, a dry run writing nothing, and a broken file or a dangling reference
// refused with every problem and nothing written. Everything goes through the real server and CLI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated, expectErrorBody } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let a: TestAccount;
let clientA: Api;
let dir: string;
/** A's export. */
let exported: string;

const layoutHtml =
  "<html><body>{% for item in navigation.main.items %}<a href='{{ item.url }}'>{{ item.title }}</a>{% endfor %}" +
  "<i>{{ site.tagline }} {{ site.featured.title }}</i>{{ content_for_layout }}</body></html>";
const postHtml =
  "<article><h1>{{ posts.title }}</h1>{{ posts.body }}<p>{{ posts.author.title }}</p>" +
  "{% for r in posts.related %}<b>{{ r.title }}</b>{% endfor %}<img src='{{ posts.cover }}'></article>";
const assetBytes = Buffer.from("Dear reader,\nhello.\n");

function graphql(token: string, query: string, variables: Record<string, unknown>) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
}

async function graphqlOk(query: string, variables: Record<string, unknown>) {
  const response = await graphql(a.token, query, { account: a.account_id, ...variables });
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

async function buildSite(client: Api): Promise<void> {
  await expectCreated(
    client.post("/templates", { handle: "layout", title: "Layout", kind: "layout", html: layoutHtml }),
  );
  await expectCreated(client.post("/templates", { handle: "post", title: "Post", html: postHtml }));
  await expectCreated(
    client.post("/templates", { handle: "partials/card", kind: "partial", html: "<div>{{ title }}</div>" }),
  );
  const asset = await expectCreated(
    client.post("/assets", {
      filename: "letter one.txt",
      path: "docs/2024",
      content_type: "text/plain",
      data: assetBytes.toString("base64"),
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Authors",
      handle: "authors",
      routing: "authors/:handle",
      layout_handle: "layout",
      blueprint: { handle: "author", fields: [{ handle: "bio", type: "text" }] },
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "blog/:handle",
      orderable: "descending",
      template_handle: "post",
      layout_handle: "layout",
      index_routing: "blog",
      index_per_page: 5,
      blueprint: {
        handle: "post",
        title: "Post",
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "author", type: "entity", options: { collection: "authors" } },
          { handle: "related", type: "entity", options: { multiple: true } },
          { handle: "cover", type: "image" },
          { handle: "tags", type: "list" },
        ],
      },
    }),
  );
  await graphqlOk(
    `mutation ($account: ID!, $input: CollectionFeedInput!) {
      collectionFeedUpdate(account_id: $account, id: "posts", input: $input) { handle } }`,
    { input: { feed_enabled: true, feed_path: "blog/feed.xml", feed_title: "The blog" } },
  );
  await expectCreated(
    client.post("/collections/authors/entries", { handle: "ada", title: "Ada", bio: "Poet" }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "second",
      title: "Second",
      published_at: "2024-05-06T07:08:09Z",
      position: 3,
      include_in_sitemap: false,
      body: "<p>Second</p>",
      // Points forward, at an entry created after it: the import resolves it after all entries exist.
    }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "draft",
      title: "Draft",
      published: false,
      body: "<p>Draft</p>",
    }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "hello",
      title: "Hello",
      body: "<p>Hi\n  there</p>\n",
      author: "ada",
      related: ["posts:second", "posts:draft"],
      cover: asset.id,
      tags: ["a", "b"],
      template_handle: "post",
    }),
  );
  await client.put("/collections/posts/entries/second", { related: ["posts:hello"] });
  await graphqlOk(
    `mutation ($account: ID!, $input: EntryRoutingInput!) {
      entryRoutingUpdate(account_id: $account, collection_id: "posts", id: "hello", input: $input) { handle } }`,
    { input: { routing_override: "welcome" } },
  );
  await expectCreated(
    client.post("/blueprints", {
      handle: "loose",
      title: "Loose",
      fields: [{ handle: "note", type: "text" }],
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: { handle: "contact", fields: [{ handle: "email", type: "text" }] },
    }),
  );
  const form = await expectCreated(
    client.post("/forms", {
      title: "Contact",
      handle: "contact",
      collection_handle: "messages",
      blueprint_handle: "contact",
      success_message: "Thanks!",
      honeypot_enabled: true,
    }),
  );
  await graphqlOk(
    `mutation ($account: ID!, $id: ID!, $input: FormNotificationsInput!) {
      formNotificationsUpdate(account_id: $account, id: $id, input: $input) { handle } }`,
    { id: form.id, input: { notification_enabled: true, notification_emails: ["a@example.com"] } },
  );
  await expectCreated(
    client.post("/globals", {
      name: "Site",
      handle: "site",
      fields: [
        { handle: "tagline", type: "text" },
        { handle: "featured", type: "entity", options: { collection: "posts" } },
      ],
      tagline: "Words, mostly",
      featured: "hello",
    }),
  );
  const menu = await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  const item = (body: Record<string, unknown>) =>
    expectCreated(client.post(`/navigations/${menu.id}/items`, body));
  await item({ title: "Home", url: "/" });
  const blog = await item({ title: "Blog", collection_handle: "posts", entry_handle: "hello" });
  await item({ title: "Ada", collection_handle: "authors", entry_handle: "ada", parent_id: blog.id });
}

/** POST …/import with a YAML body. */
function importYaml(account: TestAccount, text: string, query = "") {
  return request(`${server.url}/v1/accounts/${account.account_id}/import${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/yaml" },
    body: text,
  });
}

/** POST …/import with a .tar.gz as the multipart part `file`. */
function importArchive(account: TestAccount, bytes: Buffer, target = server) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/gzip" }), "site.tar.gz");
  return request(`${target.url}/v1/accounts/${account.account_id}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
}

const ID = /\b[a-z]+_[0-9a-hjkmnp-tv-z]{26}\b/g;

/** An answer without what differs between accounts: IDs, times, the account and its domain. */
function portable(value: unknown, domain: string): unknown {
  if (Array.isArray(value)) return value.map((item) => portable(item, domain));
  if (typeof value === "string") return value.replaceAll(domain, "DOMAIN").replace(ID, "ID");
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/^(id|created_at|updated_at|account_id|.*_id)$/.test(key))
      .map(([key, inner]) => [key, portable(inner, domain)]),
  );
}

/** Everything the REST API answers about the account's site. */
async function restState(account: TestAccount, target = server): Promise<Record<string, unknown>> {
  const client = api(target, account);
  const get = async (path: string) => {
    const response = await client.get(path);
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    return response.body;
  };
  const state: Record<string, unknown> = {};
  for (const list of ["collections", "blueprints", "templates", "navigations", "forms", "globals", "assets"])
    state[list] = await get(`/${list}?per_page=100`);
  const collections =
    (state.collections as { data?: { handle: string }[] }).data ??
    (state.collections as { handle: string }[]);
  for (const { handle } of collections)
    state[`entries:${handle}`] = await get(`/collections/${handle}/entries?per_page=100`);
  for (const { handle } of (state.navigations as { data?: { handle: string }[] }).data ??
    (state.navigations as { handle: string }[]))
    state[`navigation:${handle}`] = await get(`/navigations/${handle}`);
  return portable(state, account.domain) as Record<string, unknown>;
}

const pages = [
  "/",
  "/welcome",
  "/blog",
  "/blog/second",
  "/blog/draft",
  "/authors/ada",
  "/blog/feed.xml",
  "/sitemap.xml",
];

async function renderedPages(account: TestAccount, target = server): Promise<Record<string, string>> {
  const rendered: Record<string, string> = {};
  for (const path of pages) {
    const page = await siteGet(target, path, account.domain);
    // A feed's guid is the entry's ID; lastmod and an undated entry's pubDate are times.
    const text = page.text
      .replaceAll(account.domain, "DOMAIN")
      .replace(ID, "ID")
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "TIME")
      .replace(
        new RegExp(`<pubDate>[^<]*${new Date().getUTCFullYear()}[^<]*</pubDate>`, "g"),
        "<pubDate>NOW</pubDate>",
      );
    rendered[path] = `${page.status} ${text}`;
  }
  return rendered;
}

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), "cms-import-"));
  a = await createAccount(server, "Main site");
  clientA = api(server, a);
  await buildSite(clientA);
  const response = await clientA.get("/export.yaml");
  expect(response.status, response.text).toBe(200);
  exported = response.text;
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

/** Every revision of the account's entries, globals and templates, by record. */
async function revisionCounts(account: TestAccount): Promise<Record<string, number>> {
  const client = api(server, account);
  const counts: Record<string, number> = {};
  for (const [path, list] of [
    ["/collections/posts/entries/hello", "hello"],
    ["/collections/posts/entries/second", "second"],
    ["/globals/site", "site"],
  ]) {
    const response = await client.get(`${path}/revisions?per_page=100`);
    expect(response.status, response.text).toBe(200);
    counts[list as string] = (response.body.data ?? response.body).length;
  }
  return counts;
}

const zero = {
  collections: 0,
  blueprints: 0,
  templates: 0,
  assets: 0,
  entries: 0,
  navigations: 0,
  forms: 0,
  globals: 0,
};

describe("POST /v1/accounts/:account_id/import", () => {
  let b: TestAccount;
  let archive: Buffer;

  it("round trip: A's .tar.gz imported into a fresh account answers, renders and serves assets as A", async () => {
    const out = join(dir, "a.tar.gz");
    const made = await cms(server, ["export", "--account", a.account_id, "--out", out]);
    expect(made.code, made.stderr).toBe(0);
    archive = readFileSync(out);
    b = await createAccount(server, "Main site");
    const imported = await importArchive(b, archive);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toEqual({
      dry_run: false,
      created: {
        collections: 3,
        blueprints: 4,
        templates: 3,
        assets: 1,
        entries: 4,
        navigations: 1,
        forms: 1,
        globals: 1,
      },
      updated: zero,
      unchanged: zero,
      skipped: [],
      problems: [],
    });
    expect(await restState(b)).toEqual(await restState(a));
    expect(await renderedPages(b)).toEqual(await renderedPages(a));
    const file = await siteGet(server, "/assets/docs/2024/letter%20one.txt", b.domain);
    expect(file.status).toBe(200);
    expect(file.text).toBe(assetBytes.toString());
  });

  it("is idempotent: the same file again changes nothing (no version bump, no new revision)", async () => {
    const before = { state: await restState(b), revisions: await revisionCounts(b) };
    const again = await importArchive(b, archive);
    expect(again.status, again.text).toBe(200);
    expect(again.body.created).toEqual(zero);
    expect(again.body.updated).toEqual(zero);
    expect(again.body.unchanged).toEqual({
      collections: 3,
      blueprints: 4,
      templates: 3,
      assets: 1,
      entries: 4,
      navigations: 1,
      forms: 1,
      globals: 1,
    });
    // updated_at included: nothing was written at all.
    const raw = await api(server, b).get("/collections/posts/entries?per_page=100");
    expect(await restState(b)).toEqual(before.state);
    expect(await revisionCounts(b)).toEqual(before.revisions);
    const rawAgain = await api(server, b).get("/collections/posts/entries?per_page=100");
    expect(rawAgain.body).toEqual(raw.body);
  });

  it("updates what changed in A since, recording a revision of each changed record", async () => {
    await clientA.put("/collections/posts/entries/second", { title: "Second, revised" });
    const changed = (await clientA.get("/export.yaml")).text;
    const before = await revisionCounts(b);
    const dry = await importYaml(b, changed, "?dry_run=true");
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, updated: { ...zero, entries: 1 }, created: zero });
    expect(await revisionCounts(b)).toEqual(before);
    const imported = await importYaml(b, changed);
    expect(imported.body).toMatchObject({ dry_run: false, updated: { ...zero, entries: 1 }, created: zero });
    expect(imported.body.unchanged.entries).toBe(3);
    expect(await revisionCounts(b)).toEqual({ ...before, second: (before.second ?? 0) + 1 });
    const second = await api(server, b).get("/collections/posts/entries/second");
    expect(second.body.title).toBe("Second, revised");
    await clientA.put("/collections/posts/entries/second", { title: "Second" });
  });

  it("dry run: reports what would be created and writes nothing", async () => {
    const c = await createAccount(server, "Dry");
    const before = await restState(c);
    const dry = await importYaml(c, exported, "?dry_run=true");
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({
      dry_run: true,
      created: {
        collections: 3,
        blueprints: 4,
        templates: 3,
        entries: 4,
        navigations: 1,
        forms: 1,
        globals: 1,
      },
      problems: [],
    });
    expect(await restState(c)).toEqual(before);
  });

  it("refuses broken YAML with its line, and writes nothing", async () => {
    const before = await restState(b);
    const broken = exported.replace("entries:\n", "entries:\n  posts: [oops\n");
    const refused = await importYaml(b, broken);
    const details = expectErrorBody(refused, 422);
    expect(details[0]).toMatchObject({ line: expect.any(Number) });
    expect(refused.body.error).toBe("Import refused: nothing was written");
    expect(await restState(b)).toEqual(before);
  });

  it("refuses a dangling reference and every other problem at once, with paths and lines, writing nothing", async () => {
    const fresh = await createAccount(server, "Refused");
    const before = await restState(fresh);
    const bad = exported
      .replace("author: authors:ada", "author: authors:nobody")
      .replace("title: Second\n", "title: Second\n      template_handle: missing\n")
      .replace("handle: contact\n    title: Contact", "handle: contact\n    title: ''");
    const refused = await importYaml(fresh, bad);
    const details = expectErrorBody(refused, 422);
    const line = bad.split("\n").findIndex((text) => text.includes("authors:nobody")) + 1;
    expect(details).toEqual(
      expect.arrayContaining([
        {
          path: expect.stringMatching(/^entries\.posts\[\d\]\.values\.author$/),
          line,
          message: "'authors:nobody' is not an entry of this account",
        },
        expect.objectContaining({
          path: expect.stringMatching(/template_handle$/),
          message: "no template with handle 'missing'",
        }),
        expect.objectContaining({ path: "forms[0].title", message: "must not be empty" }),
      ]),
    );
    expect(await restState(fresh)).toEqual(before);
  });

  it("refuses a document that is not UTF-8 as malformed YAML", async () => {
    const response = await request(`${server.url}/v1/accounts/${b.account_id}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.token}`, "content-type": "application/yaml" },
      body: Buffer.concat([
        Buffer.from("format: cms-site/1\ntitle: "),
        Buffer.from([0xff, 0xfe]),
        Buffer.from("\n"),
      ]),
    });
    expect(expectErrorBody(response, 400)).toEqual([{ path: "body", message: "is not valid UTF-8 text" }]);
    expect(response.body.error).toBe("Malformed YAML");
  });

  it("refuses a file cut short and a format it does not know", async () => {
    const cut = exported.replace(/complete: true\n$/, "");
    expect(expectErrorBody(await importYaml(b, cut), 422)).toEqual([
      expect.objectContaining({ path: "complete", message: expect.stringContaining("cut short") }),
    ]);
    const other = exported.replace("format: cms-site/1", "format: cms-site/9");
    expect(expectErrorBody(await importYaml(b, other), 422)[0]?.path).toBe("format");
  });

  it("needs a write token of the account", async () => {
    const other = await createAccount(server, "Other");
    const response = await request(`${server.url}/v1/accounts/${b.account_id}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "application/yaml" },
      body: exported,
    });
    expectErrorBody(response, 403);
    const unsupported = await api(server, b).post("/import", { format: "cms-site/1" });
    expectErrorBody(unsupported, 415);
  });
});

describe("between databases", () => {
  let other: TestServer | undefined;
  afterAll(() => other?.stop());

  it("moves A to a server on the other database and back, answering and rendering as A", async () => {
    // The other database than this run's: SQLite to PostgreSQL, or PostgreSQL to SQLite.
    other = await startServer({}, { database: usesPostgres ? "sqlite" : "postgres" });
    const out = join(dir, "a-moved.tar.gz");
    const made = await cms(server, ["export", "--account", a.account_id, "--out", out]);
    expect(made.code, made.stderr).toBe(0);
    const there = await createAccount(other, "Moved site");
    const moved = await importArchive(there, readFileSync(out), other);
    expect(moved.status, moved.text).toBe(200);
    expect(await restState(there, other)).toEqual(await restState(a));
    expect(await renderedPages(there, other)).toEqual(await renderedPages(a));

    const back = join(dir, "a-back.tar.gz");
    const exportedThere = await cms(other, ["export", "--account", there.account_id, "--out", back]);
    expect(exportedThere.code, exportedThere.stderr).toBe(0);
    const home = await createAccount(server, "Returned site");
    const returned = await importArchive(home, readFileSync(back));
    expect(returned.status, returned.text).toBe(200);
    expect(await restState(home)).toEqual(await restState(a));
    expect(await renderedPages(home)).toEqual(await renderedPages(a));
  }, 120_000);
});

describe("cms import", () => {
  it("imports a .yaml with --dry-run then for real, printing the report", async () => {
    const d = await createAccount(server, "CLI");
    const file = join(dir, "site.yaml");
    writeFileSync(file, exported);
    const dry = await cms(server, ["import", "--account", d.account_id, file, "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, created: { entries: 4 } });
    expect((await api(server, d).get("/collections")).body.data ?? []).toEqual([]);
    const real = await cms(server, ["import", "--account", d.account_id, file]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain("entries: 4 created, 0 updated, 0 unchanged");
    const { assets: _a, ...stateD } = await restState(d);
    const { assets: _b, ...stateA } = await restState(a);
    // Without the archive the asset is not created, so the image is kept as its path.
    expect(JSON.stringify(stateD).replaceAll("letter one.txt", "letter%20one.txt")).toEqual(
      JSON.stringify(stateA),
    );
  });

  it("refuses a file with problems, exiting 1 with each problem on stderr", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(file, exported.replace("author: authors:ada", "author: authors:nobody"));
    const refused = await cms(server, ["import", "--account", a.account_id, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("values.author 'authors:nobody' is not an entry of this account");
  });
});

describe("the hosted service's export.yaml", () => {
  it("imports its collections, navigation, forms and globals, and says what it skipped", async () => {
    const h = await createAccount(server, "Hosted");
    const hosted = [
      "content_paths:",
      "  /news/launch: { content_key: news, content: launch, template: article, layout: theme }",
      "  /news: { content_key: news, content: _index, template: news_index }",
      "navigation:",
      "  main:",
      "    - { title: Home, url: / }",
      "    - title: News",
      "      url: /news",
      "      children: [{ title: Launch, url: /news/launch }]",
      "forms:",
      "  contact: { title: Contact us, collection: messages, honeypot_enabled: true, redirect_url: '', fields: [{ name: email }] }",
      "site: { title: My site, tagline: Hello, position: top, id: 7 }",
      "news:",
      "  - { id: cnety_abc, handle: launch, title: Launch, published_at: 2024-01-02T03:04:05Z, position: 1, body: '<p>Go</p>', views: 3, featured: true, author: { handle: ada, content_path: /people/ada } }",
      "  - { id: cnety_def, handle: plans, title: Plans, published: false, body: '<p>Soon</p>', views: 1, featured: false }",
      "people:",
      "  - { handle: ada, title: Ada }",
      "messages:",
      "  - { handle: first, title: First message, email: a@example.com }",
    ].join("\n");
    const imported = await importYaml(h, hosted);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({
      created: { collections: 3, entries: 4, navigations: 1, forms: 1, globals: 1 },
      problems: [],
    });
    const skipped = imported.body.skipped.join("\n");
    expect(skipped).toContain("content_paths");
    expect(skipped).toContain("forms.contact.fields");
    const client = api(server, h);
    const launch = await client.get("/collections/news/entries/launch");
    expect(launch.body).toMatchObject({
      title: "Launch",
      content_path: "/news/launch",
      body: "<p>Go</p>",
      views: 3,
      featured: true,
      position: 1,
    });
    expect(launch.body.author).toMatchObject({ handle: "ada" });
    const menu = await client.get("/navigations/main");
    expect(menu.body.items.map((item: { title: string }) => item.title)).toEqual(["Home", "News"]);
    const form = await client.get("/forms/contact");
    expect(form.body).toMatchObject({ title: "Contact us", honeypot_enabled: true, redirect_url: null });
    const site = await client.get("/globals/site");
    // An entry's own keys are a global's fields; the global's own are not.
    expect(site.body).toMatchObject({ name: "My site", tagline: "Hello", position: "top" });
    expect(skipped).toContain("site.id: not a field of a global here");
    const again = await importYaml(h, hosted);
    expect(again.body.created).toEqual(zero);
    expect(again.body.updated).toEqual(zero);
  });
});
