// The site export (export half): GET /v1/accounts/:account_id/export.yaml and `cms export`.
// A small site is built over REST and GraphQL, exported, parsed with `yaml`, and every section checked:
// handles and references by handle, never an ID. Everything goes through the real server and CLI.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated, expectErrorBody } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let other: TestAccount;
let readToken: string;
let dir: string;
/** The export of the main account, as text and parsed. */
let text: string;
let site: any;

const layoutHtml = "<html>\n  <body>\n{{ content_for_layout }}\n  </body>\n</html>\n";
const postHtml = "<article>\n  <h1>{{ posts.title }}</h1>\n  {{ posts.body }}\n</article>";
const assetBytes = Buffer.from("Dear reader,\nhello.\n");
/** Any prefix ID (acct_, cnety_, clctn_, blprt_, nav_, ni_, form_, stgbl_, acass_, tmplt_, tok_...). */
const ID = /\b[a-z]+_[0-9a-hjkmnp-tv-z]{26}\b/;

function graphql(query: string, variables: Record<string, unknown>) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ query, variables }),
  });
}

async function graphqlOk(query: string, variables: Record<string, unknown>) {
  const response = await graphql(query, { account: account.account_id, ...variables });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

function exportOf(token?: string, accountId = account.account_id) {
  return request(`${server.url}/v1/accounts/${accountId}/export.yaml`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** The document without the moment it was made. */
function timeless(document: any) {
  const { exported_at: _moment, ...rest } = document;
  return rest;
}

async function buildSite(): Promise<void> {
  const templates = [
    { handle: "layout", title: "Layout", kind: "layout", html: layoutHtml },
    { handle: "post", title: "Post", kind: "template", html: postHtml },
    { handle: "partials/card", title: "Card", kind: "partial", html: "<div>{{ title }}</div>" },
  ];
  for (const template of templates) await expectCreated(client.post("/templates", template));
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
      published: false,
      published_at: "2024-05-06T07:08:09Z",
      position: 3,
      include_in_sitemap: false,
      body: "<p>Draft</p>",
    }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "hello",
      title: "Hello",
      body: "<p>Hi\n  there</p>\n",
      author: "ada",
      related: ["posts:second"],
      cover: asset.id,
      tags: ["a", "b"],
      template_handle: "post",
    }),
  );
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
    {
      id: form.id,
      input: { notification_enabled: true, notification_emails: ["a@example.com", "b@example.com"] },
    },
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
  const ada = await item({
    title: "Ada",
    collection_handle: "authors",
    entry_handle: "ada",
    parent_id: blog.id,
  });
  await item({ title: "Elsewhere", url: "https://example.com/", parent_id: ada.id });
}

beforeAll(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), "cms-export-"));
  [account, other] = await Promise.all([createAccount(server, "Main site"), createAccount(server, "Other")]);
  client = api(server, account);
  const read = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  readToken = JSON.parse(read.stdout).token;
  await buildSite();
  const response = await exportOf(account.token);
  expect(response.status, response.text).toBe(200);
  text = response.text;
  site = parse(text);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server?.stop();
});

describe("GET /v1/accounts/:account_id/export.yaml", () => {
  it("is YAML, names its format and source, and ends with its completion mark", async () => {
    const response = await exportOf(account.token);
    expect(response.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(site.format).toBe("cms-site/1");
    expect(Date.parse(site.exported_at)).not.toBeNaN();
    expect(site.source).toEqual({ name: "Main site", domain: account.domain });
    expect(site.counts).toEqual({ collections: 3, entries: 3, assets: 1 });
    expect(Object.keys(site)).toEqual([
      "format",
      "exported_at",
      "source",
      "counts",
      "collections",
      "blueprints",
      "templates",
      "assets",
      "entries",
      "navigations",
      "forms",
      "globals",
      "complete",
    ]);
    expect(site.complete).toBe(true);
  });

  it("holds no ID anywhere, only handles and paths", () => {
    expect(text).not.toMatch(ID);
    expect(text).not.toContain(account.account_id);
  });

  it("writes collections with their settings and blueprints inline, and standalone blueprints apart", () => {
    expect(site.collections.map((c: any) => c.handle)).toEqual(["authors", "posts", "messages"]);
    const posts = site.collections[1];
    expect(posts).toMatchObject({
      name: "Posts",
      routing: "blog/:handle",
      root_routing: false,
      orderable: "descending",
      template_handle: "post",
      layout_handle: "layout",
      index_routing: "blog",
      index_per_page: 5,
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_title: "The blog",
      feed_description: null,
      feed_limit: 20,
    });
    expect(posts.blueprints).toHaveLength(1);
    expect(posts.blueprints[0].handle).toBe("post");
    expect(posts.blueprints[0].fields.map((f: any) => [f.handle, f.type])).toEqual([
      ["body", "rich_text"],
      ["author", "entity"],
      ["related", "entity"],
      ["cover", "image"],
      ["tags", "list"],
    ]);
    expect(posts.blueprints[0].fields[1]).toEqual({
      handle: "author",
      display: "Author",
      type: "entity",
      position: 1,
      options: { collection: "authors" },
    });
    expect(site.blueprints).toEqual([
      {
        handle: "loose",
        title: "Loose",
        fields: [{ handle: "note", display: "Note", type: "text", position: 0, options: {} }],
      },
    ]);
  });

  it("writes every template with its exact source", () => {
    expect(site.templates).toEqual([
      { handle: "layout", title: "Layout", kind: "layout", html: layoutHtml },
      { handle: "post", title: "Post", kind: "template", html: postHtml },
      { handle: "partials/card", title: "Card", kind: "partial", html: "<div>{{ title }}</div>" },
    ]);
  });

  it("writes asset metadata with the checksum of the stored bytes", () => {
    expect(site.assets).toEqual([
      {
        path: "docs/2024",
        filename: "letter one.txt",
        content_type: "text/plain",
        size: assetBytes.length,
        sha256: createHash("sha256").update(assetBytes).digest("hex"),
      },
    ]);
  });

  it("writes every entry, published or not, with references by handle and path", () => {
    expect(Object.keys(site.entries)).toEqual(["authors", "posts", "messages"]);
    expect(site.entries.authors).toEqual([
      { handle: "ada", title: "Ada", published: true, published_at: null, values: { bio: "Poet" } },
    ]);
    expect(site.entries.messages).toEqual([]);
    expect(site.entries.posts).toEqual([
      {
        handle: "second",
        title: "Second",
        published: false,
        published_at: "2024-05-06T07:08:09.000Z",
        position: 3,
        include_in_sitemap: false,
        values: { body: "<p>Draft</p>" },
      },
      {
        handle: "hello",
        title: "Hello",
        published: true,
        published_at: null,
        template_handle: "post",
        routing_override: "welcome",
        values: {
          body: "<p>Hi\n  there</p>\n",
          author: "authors:ada",
          related: ["posts:second"],
          cover: "docs/2024/letter one.txt",
          tags: ["a", "b"],
        },
      },
    ]);
  });

  it("writes navigations as item trees whose links name entries by handle", () => {
    expect(site.navigations).toEqual([
      {
        handle: "main",
        title: "Main",
        items: [
          { title: "Home", url: "/" },
          {
            title: "Blog",
            collection_handle: "posts",
            entry_handle: "hello",
            children: [
              {
                title: "Ada",
                collection_handle: "authors",
                entry_handle: "ada",
                children: [{ title: "Elsewhere", url: "https://example.com/" }],
              },
            ],
          },
        ],
      },
    ]);
  });

  it("writes forms with their notification settings, and globals with fields and values", () => {
    expect(site.forms).toEqual([
      {
        handle: "contact",
        title: "Contact",
        collection_handle: "messages",
        blueprint_handle: "contact",
        redirect_url: null,
        success_message: "Thanks!",
        honeypot_enabled: true,
        spam_check_enabled: false,
        notification_enabled: true,
        notification_emails: ["a@example.com", "b@example.com"],
      },
    ]);
    expect(site.globals).toEqual([
      {
        handle: "site",
        name: "Site",
        fields: [
          { handle: "tagline", display: "Tagline", type: "text", position: 0, options: {} },
          {
            handle: "featured",
            display: "Featured",
            type: "entity",
            position: 1,
            options: { collection: "posts" },
          },
        ],
        values: { tagline: "Words, mostly", featured: "posts:hello" },
      },
    ]);
  });

  it("needs a token of the account: 401 without one, 403 with another account's; a read token will do", async () => {
    const none = await exportOf();
    expect(expectErrorBody(none, 401)).toEqual([]);
    const foreign = await exportOf(other.token);
    expectErrorBody(foreign, 403);
    expect(foreign.text).not.toContain("format:");
    const read = await exportOf(readToken);
    expect(read.status).toBe(200);
    expect(timeless(parse(read.text))).toEqual(timeless(site));
  });

  it("answers HEAD with the headers only", async () => {
    const response = await fetch(`${server.url}/v1/accounts/${account.account_id}/export.yaml`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(await response.text()).toBe("");
  });
});

describe("cms export", () => {
  it("writes the same document as REST to FILE.yaml", async () => {
    const out = join(dir, "site.yaml");
    const result = await cms(server, ["export", "--account", account.account_id, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(`exported 3 collections, 3 entries and 1 asset to ${out}`);
    // stderr is no terminal here: no progress bar, only the line naming the database.
    expect(result.stderr).not.toContain("\r");
    expect(timeless(parse(readFileSync(out, "utf8")))).toEqual(timeless(site));
  });

  it("writes site.yaml and every asset's bytes to FILE.tar.gz", async () => {
    const out = join(dir, "site.tar.gz");
    const result = await cms(server, ["export", "--account", account.account_id, "--out", out, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      file: out,
      collections: 3,
      entries: 3,
      assets: 1,
      missing_files: 0,
    });
    const listing = execFileSync("tar", ["-tzf", out], { encoding: "utf8" }).trim().split("\n");
    expect(listing).toEqual(["site.yaml", "assets/docs/2024/letter one.txt"]);
    const into = join(dir, "unpacked");
    execFileSync("mkdir", ["-p", into]);
    execFileSync("tar", ["-xzf", out, "-C", into]);
    expect(readFileSync(join(into, "assets/docs/2024/letter one.txt"))).toEqual(assetBytes);
    expect(timeless(parse(readFileSync(join(into, "site.yaml"), "utf8")))).toEqual(timeless(site));
  });

  it("refuses an unknown account and an unknown file type, leaving no file", async () => {
    const missing = await cms(server, ["export", "--account", "acct_missing", "--out", join(dir, "x.yaml")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no account acct_missing/);
    const json = await cms(server, ["export", "--account", account.account_id, "--out", join(dir, "x.json")]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/--out must end in \.yaml/);
    expect(execFileSync("ls", [dir], { encoding: "utf8" })).not.toMatch(/x\.|partial/);
  });
});

describe("a large export", () => {
  // Four pages of the export's reads (ENTRY_PAGE in src/schema/export/entries.ts, not imported: its module
  // brings in much of the schema), the last one partial, with references across their bounds.
  const ENTRY_PAGE = 500;
  const COUNT = ENTRY_PAGE * 3 + 100;
  let big: TestAccount;

  beforeAll(async () => {
    big = await createAccount(server, "Big");
    const bigClient = api(server, big);
    await expectCreated(
      bigClient.post("/collections", {
        name: "Items",
        handle: "items",
        routing: "items/:handle",
        blueprint: {
          handle: "item",
          fields: [
            { handle: "n", type: "number" },
            { handle: "next", type: "entity" },
          ],
        },
      }),
    );
    // Through the API, a few at a time: each entry after the first few names one made before it.
    const CONCURRENCY = 8;
    for (let start = 0; start < COUNT; start += CONCURRENCY) {
      const batch = [];
      for (let n = start; n < Math.min(COUNT, start + CONCURRENCY); n++)
        batch.push(
          bigClient.post("/collections/items/entries", {
            handle: `item-${n}`,
            title: `Item ${n}`,
            n,
            ...(n >= CONCURRENCY && { next: `item-${n - CONCURRENCY}` }),
          }),
        );
      for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
    }
  }, 300_000);

  it("streams every entry (several pages of them) with counts that match", async () => {
    const response = await fetch(`${server.url}/v1/accounts/${big.account_id}/export.yaml`, {
      headers: { authorization: `Bearer ${big.token}` },
    });
    expect(response.status).toBe(200);
    // Sent in parts as they are read, not as one body of known length.
    expect(response.headers.get("content-length")).toBeNull();
    let chunks = 0;
    let body = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      body += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(COUNT / ENTRY_PAGE);
    const document = parse(body);
    expect(document.counts.entries).toBe(COUNT);
    expect(document.entries.items).toHaveLength(COUNT);
    const handles = new Set(document.entries.items.map((entry: any) => entry.handle));
    expect(handles.size).toBe(COUNT);
    const last = document.entries.items.find((entry: any) => entry.handle === `item-${COUNT - 1}`);
    expect(last.values).toEqual({ n: COUNT - 1, next: `items:item-${COUNT - 1 - 8}` });
    expect(document.complete).toBe(true);
  }, 120_000);
});
