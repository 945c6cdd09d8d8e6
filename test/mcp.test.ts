// The tool interface (docs/mcp.md) over HTTP: POST /v1/mcp with the SDK's own client and a
// bearer token. Every tool is called at least once and answers the JSON REST answers for the same
// resource; tool errors carry REST's error body with its status; a read token sees and runs only the read
// tools; another account's token finds nothing of this one; new handles must be snake_case;
// assets_upload_from_url refuses private addresses, also behind a redirect; the rate budget counts each
// request; each call is logged. Runs on SQLite, or PostgreSQL with TEST_DATABASE=postgres.
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { ISO } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import {
  expectPreview,
  type McpClient,
  mcpClient,
  png,
  postRpc,
  siteBytes,
  toolCallLogs,
  toolCallMessage,
} from "./helpers/mcp.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";
import { populateTenant, snapshotTenant, type TenantData } from "./helpers/tenant.ts";

const READ_TOOLS = [
  "entries_list",
  "entries_get",
  "entries_query",
  "collections_list",
  "collections_get",
  "blueprints_list",
  "blueprints_get",
  "templates_list",
  "templates_get",
  "templates_validate",
  "assets_list",
  "assets_get",
  "globals_list",
  "globals_get",
  "navigations_list",
  "navigations_get",
  "forms_list",
  "forms_get",
  "site_preview",
];
const WRITE_TOOLS = [
  "entries_save",
  "entries_delete",
  "entries_routing_save",
  "collections_save",
  "collections_feed_save",
  "blueprints_save",
  "templates_save",
  "templates_delete",
  "assets_upload",
  "assets_upload_from_url",
  "assets_delete",
  "globals_save",
  "navigations_save",
  "forms_save",
  "forms_notifications_save",
];
const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS];
/** Tools that only read but need a write token: a webhook's URL may hold a receiver's credentials. */
const WRITE_TOKEN_READS = ["webhooks_list", "webhooks_get", "webhooks_deliveries_list"];

let server: TestServer;
/** Account A: the tools' main account, and its REST client. */
let accountA: TestAccount;
let restA: Api;
let mcpA: McpClient;
/** A read-scoped token of A. */
let reader: McpClient;
let readerToken: string;
/** Account B, with data of its own. */
let restB: Api;
let mcpB: McpClient;
/** Tools called with a successful answer in this file, to check that none was left out. */
const called = new Set<string>();

/** A's call that must work; its structured content. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const body = await mcpA.ok(name, args);
  called.add(name);
  return body;
}

/** A REST GET of A's that must answer 200; its body. */
async function rest(path: string): Promise<any> {
  const response = await restA.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  return response.body;
}

beforeAll(async () => {
  server = await startServer();
  const [first, second] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
  accountA = first;
  restA = api(server, first);
  restB = api(server, second);
  readerToken = await readToken(first);
  [mcpA, mcpB, reader] = await Promise.all([
    mcpClient(server, first.token),
    mcpClient(server, second.token),
    mcpClient(server, readerToken),
  ]);
});
afterAll(async () => {
  await Promise.all([mcpA?.close(), mcpB?.close(), reader?.close()]);
  await server?.stop();
});

/** A read-scoped token of `account`, made by `cms token create`. */
async function readToken(account: TestAccount): Promise<string> {
  const made = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  expect(made.code, made.stderr).toBe(0);
  return JSON.parse(made.stdout).token;
}

describe("tools/list", () => {
  it("lists every tool to a write token, each with an object schema that takes no account_id", async () => {
    const { tools } = await mcpA.client.listTools();
    // This file's tools; those of history (revisions, trash, previews) are test/mcp-history.test.ts's.
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(ALL_TOOLS));
    const readable = new Set((await reader.client.listTools()).tools.map((tool) => tool.name));
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\w/);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain("account_id");
      // Read-only exactly when a read token is shown it, but for the reads of webhooks: a webhook's URL may
      // hold a receiver's credentials, so they need a write token.
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(
        readable.has(tool.name) || WRITE_TOKEN_READS.includes(tool.name),
      );
      if (WRITE_TOKEN_READS.includes(tool.name)) expect(readable.has(tool.name), tool.name).toBe(false);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const save = byName.get("entries_save")?.inputSchema;
    expect(save?.required?.sort()).toEqual(["collection", "handle"]);
    expect(Object.keys(save?.properties ?? {})).toEqual(
      expect.arrayContaining([
        "collection",
        "handle",
        "new_handle",
        "title",
        "published",
        "published_at",
        "values",
      ]),
    );
    expect(byName.get("assets_upload")?.inputSchema.properties).toMatchObject({
      data: { type: ["string", "null"] },
      filename: { type: "string" },
    });
    expect(byName.get("assets_upload")?.inputSchema.required?.sort()).toEqual(["data", "filename"]);
    expect(Object.keys(byName.get("assets_upload")?.inputSchema.properties ?? {})).not.toContain("upload");
    expect(byName.get("navigations_save")?.inputSchema.properties?.items).toMatchObject({ type: "array" });
    expect(byName.get("entries_delete")?.annotations?.destructiveHint).toBe(true);
  });

  it("manages webhooks with a write token only, showing the secret once", async () => {
    const made = await mcpA.ok("webhooks_create", {
      url: "https://hooks.invalid/cms",
      events: ["entry.created"],
      description: "Rebuild",
    });
    expect(made).toMatchObject({
      url: "https://hooks.invalid/cms",
      events: ["entry.created"],
      enabled: true,
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = await mcpA.ok("webhooks_list");
    expect(listed.data.map((hook: any) => hook.id)).toContain(made.id);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    const changed = await mcpA.ok("webhooks_update", { id: made.id, enabled: false });
    expect(changed.enabled).toBe(false);
    const rotated = await mcpA.ok("webhooks_rotate_secret", { id: made.id });
    expect(rotated.secret).not.toBe(made.secret);
    await mcpA.fails("webhooks_create", { url: "ftp://hooks.invalid/", events: ["*"] }, 422, "url");
    await reader.fails("webhooks_list", {}, 403);
    expect(await mcpA.ok("webhooks_delete", { id: made.id })).toEqual({ id: made.id, deleted: true });
  });

  it("lists only the read tools to a read-scoped token", async () => {
    const { tools } = await reader.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(READ_TOOLS));
    for (const name of WRITE_TOOLS) expect(names).not.toContain(name);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
  });
});

describe("every tool, answering what REST answers", () => {
  const published_at = "2024-05-01T10:00:00.000Z";

  it("templates: validate, save (create and update), get, list", async () => {
    const valid = await ok("templates_validate", { html: "<h1>{{ title }}</h1>" });
    expect(valid).toEqual({ valid: true, errors: [] });
    // Every syntax error, each with its line (two here: lines 2 and 4).
    const invalid = await ok("templates_validate", {
      html: "<p>\n{% if %}\nok\n{{ title | }}</p>{% endif %}",
    });
    expect(invalid.valid).toBe(false);
    expect(invalid.errors.map((problem: { line: number }) => problem.line)).toEqual([2, 4]);
    for (const problem of invalid.errors) expect(problem.message).toMatch(/\w/);
    // Nothing was saved.
    expect((await rest("/templates")).data).toEqual([]);

    const created = await ok("templates_save", {
      handle: "post_page",
      title: "Post page",
      kind: "template",
      html: "<h1>{{ title }}</h1><div class='body'>{{ body }}</div>",
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^tmplt_/),
      handle: "post_page",
      title: "Post page",
      kind: "template",
      html: "<h1>{{ title }}</h1><div class='body'>{{ body }}</div>",
      warnings: [],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const updated = await ok("templates_save", {
      handle: "post_page",
      html: '<h1>{{ title }}</h1><div class="body">{{ body }}</div>',
    });
    expect(updated).toMatchObject({
      id: created.id,
      title: "Post page",
      html: expect.stringContaining('"body"'),
    });
    expect(await ok("templates_get", { handle: "post_page" })).toEqual(await rest("/templates/post_page"));
    const list = await ok("templates_list");
    expect(list).toEqual(await rest("/templates"));
    expect(list.data.map((template: { handle: string }) => template.handle)).toContain("post_page");
  });

  it("blueprints: save (create and update), get, list", async () => {
    const created = await ok("blueprints_save", {
      handle: "article_fields",
      title: "Article",
      fields: [{ handle: "body", type: "text" }],
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^blprt_/),
      handle: "article_fields",
      title: "Article",
      fields: [expect.objectContaining({ handle: "body", type: "text" })],
    });
    const updated = await ok("blueprints_save", {
      handle: "article_fields",
      fields: [
        { handle: "body", type: "text" },
        { handle: "cover", type: "image" },
      ],
    });
    expect(updated.fields.map((field: { handle: string }) => field.handle)).toEqual(["body", "cover"]);
    expect(await ok("blueprints_get", { handle: "article_fields" })).toEqual(
      await rest("/blueprints/article_fields"),
    );
    expect(await ok("blueprints_list")).toEqual(await rest("/blueprints"));
  });

  it("collections: save, get, list, feed settings", async () => {
    const created = await ok("collections_save", {
      handle: "blog",
      name: "Blog",
      routing: "blog/:handle",
      template_handle: "post_page",
      blueprint_handle: "article_fields",
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^clctn_/),
      handle: "blog",
      name: "Blog",
      routing: "blog/:handle",
      template_handle: "post_page",
      blueprint_handles: ["article_fields"],
      feed_enabled: false,
    });
    const renamed = await ok("collections_save", { handle: "blog", name: "The blog" });
    expect(renamed).toMatchObject({ id: created.id, name: "The blog", routing: "blog/:handle" });
    const feed = await ok("collections_feed_save", {
      handle: "blog",
      feed_enabled: true,
      feed_path: "/blog/feed.xml",
      feed_title: "Blog feed",
    });
    // REST's feed rules keep the path without its leading slash.
    expect(feed).toMatchObject({
      id: created.id,
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_title: "Blog feed",
    });
    expect(await ok("collections_get", { handle: "blog" })).toEqual(await rest("/collections/blog"));
    expect(await ok("collections_list")).toEqual(await rest("/collections"));
  });

  it("entries: save (create, update, rename), get, list, query, routing, delete", async () => {
    const created = await ok("entries_save", {
      collection: "blog",
      handle: "hello_world",
      title: "Hello world",
      published: true,
      published_at,
      values: { body: "First words" },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^cnety_/),
      handle: "hello_world",
      title: "Hello world",
      published: true,
      published_at: expect.stringMatching(ISO),
      collection_handle: "blog",
      content_path: "/blog/hello_world",
      body: "First words",
    });
    expect(created).not.toHaveProperty("values");
    expect(Date.parse(created.published_at)).toBe(Date.parse(published_at));
    expect(created).toEqual(await rest("/collections/blog/entries/hello_world"));

    // Fields not given are kept.
    const updated = await ok("entries_save", {
      collection: "blog",
      handle: "hello_world",
      title: "Hello again",
    });
    expect(updated).toMatchObject({
      id: created.id,
      title: "Hello again",
      body: "First words",
      published: true,
    });

    const draft = await ok("entries_save", {
      collection: "blog",
      handle: "draft_one",
      title: "Draft one",
      published: false,
      values: { body: "Not yet" },
    });
    const renamed = await ok("entries_save", {
      collection: "blog",
      handle: "draft_one",
      new_handle: "draft_two",
    });
    expect(renamed).toMatchObject({ id: draft.id, handle: "draft_two", published: false });
    expect((await restA.get("/collections/blog/entries/draft_one")).status).toBe(404);

    const got = await ok("entries_get", { collection: "blog", handle: "draft_two" });
    expect(got).toEqual(await rest("/collections/blog/entries/draft_two"));
    expect(got.body).toBe("Not yet");

    const list = await ok("entries_list", { collection: "blog" });
    expect(list).toEqual(await rest("/collections/blog/entries"));
    expect(list.data.map((entry: { handle: string }) => entry.handle).sort()).toEqual([
      "draft_two",
      "hello_world",
    ]);
    const drafts = await ok("entries_list", { collection: "blog", published: false });
    expect(drafts.data.map((entry: { handle: string }) => entry.handle)).toEqual(["draft_two"]);

    // Published entries only, with their values nested as GraphQL's contentEntries has them.
    const queried = await ok("entries_query", {
      collection: "blog",
      filter: [{ field: "title", contains: "hello" }],
      sort: [{ field: "published_at", direction: "desc" }],
      per_page: 5,
    });
    expect(queried.data).toEqual([
      expect.objectContaining({ id: created.id, handle: "hello_world", values: { body: "First words" } }),
    ]);
    expect(queried.pagination).toMatchObject({ page: 1, per_page: 5, total: 1 });
    const none = await ok("entries_query", {
      collection: "blog",
      filter: [{ field: "handle", eq: "draft_two" }],
    });
    expect(none.data).toEqual([]);

    const routed = await ok("entries_routing_save", {
      collection: "blog",
      handle: "hello_world",
      routing_override: "welcome",
    });
    expect(routed).toMatchObject({ id: created.id, routing_override: expect.stringMatching(/^\/?welcome$/) });
    expect(routed.content_path).toBe("/welcome");
    expect(await rest("/collections/blog/entries/hello_world")).toMatchObject({ content_path: "/welcome" });
    // The schema says the override may be null, and null clears it, as over GraphQL.
    const { tools } = await mcpA.client.listTools();
    const routing = tools.find((tool) => tool.name === "entries_routing_save");
    expect(routing?.inputSchema.properties?.routing_override).toMatchObject({ type: ["string", "null"] });
    const cleared = await ok("entries_routing_save", {
      collection: "blog",
      handle: "hello_world",
      routing_override: null,
    });
    expect(cleared).toMatchObject({ routing_override: null, content_path: "/blog/hello_world" });
    await ok("entries_routing_save", {
      collection: "blog",
      handle: "hello_world",
      routing_override: "welcome",
    });

    const throwaway = await ok("entries_save", {
      collection: "blog",
      handle: "throwaway",
      title: "Gone soon",
    });
    expect(await ok("entries_delete", { collection: "blog", handle: "throwaway" })).toEqual({
      id: throwaway.id,
      deleted: true,
    });
    expect((await restA.get("/collections/blog/entries/throwaway")).status).toBe(404);
  });

  it("site_preview: a page by path, and an unpublished entry by collection and handle", async () => {
    const page = await mcpA.call("site_preview", { path: "/welcome" });
    const body = expectPreview(page, "site_preview");
    called.add("site_preview");
    expect(body).toMatchObject({ path: "/welcome", status: 200 });
    expect(body.html).toContain("<h1>Hello again</h1>");
    expect(body.html).toContain("First words");
    // What the site itself serves there.
    const served = await siteGet(server, "/welcome", accountA.domain);
    expect(served.status).toBe(200);
    expect(served.text).toContain("<h1>Hello again</h1>");

    const draft = await mcpA.call("site_preview", { collection: "blog", handle: "draft_two" });
    const draftBody = expectPreview(draft, "site_preview draft");
    expect(draftBody).toMatchObject({ collection: "blog", handle: "draft_two", status: 200 });
    expect(draftBody.html).toContain("<h1>Draft one</h1>");
    expect(draftBody.html).toContain("Not yet");
    // The public site does not show the draft.
    expect((await siteGet(server, "/blog/draft_two", accountA.domain)).status).toBe(404);

    const missing = expectPreview(await mcpA.call("site_preview", { path: "/no/such/page" }));
    expect(missing.status).toBe(404);
    await mcpA.fails("site_preview", {}, 422, "path");
  });

  it("globals: save (create and update), get, list", async () => {
    const created = await ok("globals_save", {
      handle: "site_info",
      name: "Site info",
      fields: [{ handle: "phone", type: "text" }],
      values: { phone: "555-0100" },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^stgbl_/),
      handle: "site_info",
      name: "Site info",
      phone: "555-0100",
    });
    expect(created).not.toHaveProperty("values");
    const updated = await ok("globals_save", { handle: "site_info", values: { phone: "555-0199" } });
    expect(updated).toMatchObject({ id: created.id, name: "Site info", phone: "555-0199" });
    expect(await ok("globals_get", { handle: "site_info" })).toEqual(await rest("/globals/site_info"));
    expect(await ok("globals_list")).toEqual(await rest("/globals"));
  });

  it("navigations: save with an item tree, replace it, get, list", async () => {
    const saved = await ok("navigations_save", {
      handle: "main_menu",
      title: "Main menu",
      items: [
        { title: "Home", url: "/" },
        {
          title: "Hello",
          collection_handle: "blog",
          entry_handle: "hello_world",
          children: [{ title: "Contact", url: "/contact" }],
        },
      ],
    });
    expect(saved).toMatchObject({
      id: expect.stringMatching(/^nav_/),
      handle: "main_menu",
      title: "Main menu",
      items_count: 3,
    });
    expect(saved.items).toEqual([
      expect.objectContaining({ title: "Home", url: "/" }),
      expect.objectContaining({
        title: "Hello",
        children: [expect.objectContaining({ title: "Contact", url: "/contact" })],
      }),
    ]);
    expect(await ok("navigations_get", { handle: "main_menu" })).toEqual(saved);
    expect(saved).toEqual(await rest("/navigations/main_menu"));
    // The linked item names the entry (REST's flat item list shows the link).
    const flat = await rest("/navigations/main_menu/items?all=true");
    expect(flat.data).toContainEqual(
      expect.objectContaining({
        title: "Hello",
        entity: expect.objectContaining({ handle: "hello_world", url: "/welcome" }),
      }),
    );

    // Without items the tree stays; with items it is replaced whole.
    const retitled = await ok("navigations_save", { handle: "main_menu", title: "Top menu" });
    expect(retitled).toMatchObject({ title: "Top menu", items_count: 3 });
    expect(retitled.items.map((item: { title: string }) => item.title)).toEqual(["Home", "Hello"]);
    const replaced = await ok("navigations_save", {
      handle: "main_menu",
      items: [{ title: "Only", url: "/only" }],
    });
    expect(replaced).toMatchObject({ id: saved.id, title: "Top menu", items_count: 1 });
    expect(replaced.items).toEqual([expect.objectContaining({ title: "Only", url: "/only" })]);
    expect(replaced).toEqual(await rest("/navigations/main_menu"));
    expect(await ok("navigations_list")).toEqual(await rest("/navigations"));
  });

  it("forms: save, notifications, get, list", async () => {
    const created = await ok("forms_save", {
      handle: "contact",
      title: "Contact",
      collection_handle: "blog",
      blueprint_handle: "article_fields",
      success_message: "Thanks!",
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^form_/),
      handle: "contact",
      title: "Contact",
      success_message: "Thanks!",
      notification_enabled: false,
    });
    const notified = await ok("forms_notifications_save", {
      handle: "contact",
      notification_enabled: true,
      notification_emails: ["owner@example.com", "desk@example.com"],
    });
    expect(notified).toMatchObject({
      id: created.id,
      notification_enabled: true,
      notification_emails: expect.stringMatching(/owner@example\.com,\s*desk@example\.com/),
    });
    expect(await ok("forms_get", { handle: "contact" })).toEqual(await rest("/forms/contact"));
    expect(await ok("forms_list")).toEqual(await rest("/forms"));
  });

  it("assets: upload (base64), get, list, delete; the bytes are served at the asset's url", async () => {
    const bytes = png(6, 40);
    const uploaded = await ok("assets_upload", {
      data: bytes.toString("base64"),
      filename: "logo.png",
      path: "images",
    });
    expect(uploaded).toEqual({
      id: expect.stringMatching(/^acass_/),
      filename: "logo.png",
      content_type: "image/png",
      path: "images",
      url: "/assets/images/logo.png",
      file_size: bytes.length,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const served = await siteBytes(server, uploaded.url, accountA.domain);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
    expect(await ok("assets_get", { id: uploaded.id })).toEqual(await rest(`/assets/${uploaded.id}`));
    expect(await ok("assets_list")).toEqual(await rest("/assets"));
    expect(await ok("assets_delete", { id: uploaded.id })).toEqual({ id: uploaded.id, deleted: true });
    expect((await restA.get(`/assets/${uploaded.id}`)).status).toBe(404);
  });

  it("templates_delete deletes an unused template", async () => {
    const partial = await ok("templates_save", {
      handle: "unused_partial",
      kind: "partial",
      html: "<i>x</i>",
    });
    expect(await ok("templates_delete", { handle: "unused_partial" })).toEqual({
      id: partial.id,
      deleted: true,
    });
    expect((await restA.get("/templates/unused_partial")).status).toBe(404);
    // One in use is refused, as REST refuses it.
    const refused = await mcpA.fails("templates_delete", { handle: "post_page" }, 409);
    expect(refused.error).toMatch(/\w/);
  });
});

describe("tool errors carry REST's error body and status", () => {
  it("a validation failure is 422 with details naming the fields", async () => {
    const liquid = await mcpA.fails("templates_save", { handle: "broken", html: "{% if %}" }, 422, "html");
    expect(liquid.details[0]?.message).toMatch(/line/i);
    // A create's required title, missing.
    await mcpA.fails("entries_save", { collection: "blog", handle: "no_title" }, 422, "title");
    await mcpA.fails(
      "collections_save",
      { handle: "bad_routing", name: "Bad", routing: "posts/:slug" },
      422,
      "routing",
    );
    const blueprint = await mcpA.fails(
      "blueprints_save",
      { handle: "bad_fields", title: "Bad", fields: [{ handle: "x", type: "no_such_type" }] },
      422,
    );
    expect(blueprint.details.map((detail) => detail.path).join(" ")).toMatch(/fields/);
    // A rename of a record that does not exist, and bytes that are not what the filename says.
    await mcpA.fails(
      "entries_save",
      { collection: "blog", handle: "never_made", new_handle: "still_never", title: "x" },
      422,
      "new_handle",
    );
    const notPng = await mcpA.fails(
      "assets_upload",
      { data: Buffer.from("plain text, not an image").toString("base64"), filename: "fake.png" },
      422,
    );
    expect(notPng.details.length).toBeGreaterThan(0);
    // A field only a create takes, on an existing entry.
    await mcpA.fails(
      "entries_save",
      { collection: "blog", handle: "hello_world", blueprint_handle: "article_fields" },
      422,
      "blueprint_handle",
    );
  });

  it("an unknown argument or one of the wrong kind is 422 naming it", async () => {
    const unknown = await mcpA.fails(
      "entries_get",
      { collection: "blog", handle: "hello_world", nope: 1 },
      422,
      "nope",
    );
    expect(unknown.details[0]?.message).toMatch(/not an argument/);
    const kind = await mcpA.fails("entries_list", { collection: "blog", page: "two" }, 422, "page");
    expect(kind.details[0]?.message).toMatch(/whole number/);
    await mcpA.fails("entries_get", { collection: "blog" }, 422, "handle");
    // No account_id: the token's account is the account.
    await mcpA.fails("collections_list", { account_id: accountA.account_id }, 422, "account_id");
  });

  it("a missing record is 404; an unknown tool is a protocol error", async () => {
    const missing = await mcpA.fails("entries_get", { collection: "blog", handle: "no_such_entry" }, 404);
    expect(missing.error).toMatch(/not found/i);
    await mcpA.fails("collections_get", { handle: "no_such_collection" }, 404);
    await expect(mcpA.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      /no_such_tool/,
    );
    // Params that are not the protocol's: invalid params naming what is wrong, not an internal error.
    const malformed = await postRpc(server, accountA.token, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "entries_get", arguments: ["blog"] },
    });
    expect(malformed.status, malformed.text).toBe(200);
    expect(malformed.body).toMatchObject({
      id: 7,
      error: { code: -32602, data: { details: [expect.objectContaining({ path: "params.arguments" })] } },
    });
  });
});

describe("handles made through the tools are snake_case", () => {
  it("refuses a hyphenated handle on create, and a hyphenated new_handle", async () => {
    const entry = await mcpA.fails(
      "entries_save",
      { collection: "blog", handle: "my-post", title: "My post" },
      422,
      "handle",
    );
    expect(entry.details[0]?.message).toMatch(/snake_case/);
    expect((await restA.get("/collections/blog/entries/my-post")).status).toBe(404);
    const rename = await mcpA.fails(
      "entries_save",
      { collection: "blog", handle: "hello_world", new_handle: "a-b" },
      422,
    );
    expect(rename.details.map((detail) => detail.path)).toEqual(["new_handle"]);
    expect(await rest("/collections/blog/entries/hello_world")).toMatchObject({ handle: "hello_world" });
    for (const [tool, args] of [
      ["collections_save", { handle: "my-blog", name: "Mine", routing: "mine/:handle" }],
      ["templates_save", { handle: "my-page", html: "<p></p>" }],
      ["blueprints_save", { handle: "my-fields", title: "Mine" }],
      ["globals_save", { handle: "my-global", name: "Mine" }],
      ["navigations_save", { handle: "my-menu", title: "Mine" }],
      [
        "forms_save",
        { handle: "my-form", title: "Mine", collection_handle: "blog", blueprint_handle: "article_fields" },
      ],
    ] as const)
      await mcpA.fails(tool, args, 422, "handle");
    // A snake_case one is taken, and a rename to another snake_case one too.
    const made = await ok("templates_save", { handle: "gen_check", html: "<p></p>" });
    expect(made.handle).toBe("gen_check");
    const other = await ok("templates_save", { handle: "rename_me", html: "<p></p>" });
    const renamed = await ok("templates_save", { handle: "rename_me", new_handle: "renamed_one" });
    expect(renamed).toMatchObject({ id: other.id, handle: "renamed_one" });
  });

  it("reads and updates a hyphenated handle made over REST, without renaming it", async () => {
    const made = await restA.post("/collections/blog/entries", { handle: "rest-made", title: "From REST" });
    expect(made.status, made.text).toBe(201);
    const got = await ok("entries_get", { collection: "blog", handle: "rest-made" });
    expect(got).toMatchObject({ id: made.body.id, handle: "rest-made", title: "From REST" });
    const updated = await ok("entries_save", {
      collection: "blog",
      handle: "rest-made",
      title: "Changed by a tool",
    });
    expect(updated).toMatchObject({ id: made.body.id, handle: "rest-made", title: "Changed by a tool" });
    expect(await rest("/collections/blog/entries/rest-made")).toMatchObject({ title: "Changed by a tool" });
  });
});

describe("scope and accounts", () => {
  it("a read token runs read tools and is refused every write tool with 403", async () => {
    const before = await rest("/collections/blog/entries/hello_world");
    expect(await reader.ok("entries_get", { collection: "blog", handle: "hello_world" })).toEqual(before);
    const writes: [string, Record<string, unknown>][] = [
      ["entries_save", { collection: "blog", handle: "hello_world", title: "Reader was here" }],
      ["entries_delete", { collection: "blog", handle: "hello_world" }],
      ["entries_routing_save", { collection: "blog", handle: "hello_world", routing_override: "x" }],
      ["collections_save", { handle: "blog", name: "Reader" }],
      ["collections_feed_save", { handle: "blog", feed_enabled: false }],
      ["blueprints_save", { handle: "article_fields", title: "Reader" }],
      ["templates_save", { handle: "post_page", html: "<p>reader</p>" }],
      ["templates_delete", { handle: "gen_check" }],
      ["assets_upload", { data: png().toString("base64"), filename: "r.png" }],
      ["assets_upload_from_url", { url: "http://93.184.216.34/x.png" }],
      ["assets_delete", { id: "acass_00000000000000000000000000" }],
      ["globals_save", { handle: "site_info", name: "Reader" }],
      ["navigations_save", { handle: "main_menu", title: "Reader" }],
      ["forms_save", { handle: "contact", title: "Reader" }],
      ["forms_notifications_save", { handle: "contact", notification_enabled: false }],
    ];
    expect(writes.map(([name]) => name).sort()).toEqual([...WRITE_TOOLS].sort());
    for (const [name, args] of writes) await reader.fails(name, args, 403);
    expect(await rest("/collections/blog/entries/hello_world")).toEqual(before);
    expect(await rest("/templates/gen_check")).toMatchObject({ handle: "gen_check" });
    expect(await rest("/collections/blog")).toMatchObject({ name: "The blog", feed_enabled: true });
  });

  describe("another account's token", () => {
    let secrets: TenantData;
    let snapshot: string;
    beforeAll(async () => {
      secrets = await populateTenant(restA, "mcpiso");
      snapshot = await snapshotTenant(restA, secrets, false);
    });

    it("finds none of A's records, by handle or by ID, and changes none", async () => {
      const { handles: h, ids } = secrets;
      // B sees A's records as not found (entries_get of A's handle is 404).
      await mcpB.fails("entries_get", { collection: h.collection, handle: h.entry }, 404);
      await mcpB.fails("entries_get", { collection: ids.collection, handle: ids.entry }, 404);
      await mcpB.fails("collections_get", { handle: h.collection }, 404);
      await mcpB.fails("templates_get", { handle: ids.template }, 404);
      await mcpB.fails("assets_get", { id: ids.asset }, 404);
      await mcpB.fails("forms_get", { handle: h.form }, 404);
      await mcpB.fails("globals_get", { handle: h.global }, 404);
      await mcpB.fails("navigations_get", { handle: ids.navigation }, 404);
      await mcpB.fails("entries_list", { collection: h.collection }, 404);
      await mcpB.fails("entries_query", { collection: h.collection }, 404);
      await mcpB.fails("site_preview", { collection: h.collection, handle: h.entry }, 404);
      // Writes aimed at A's records find nothing to change.
      await mcpB.fails(
        "entries_save",
        { collection: ids.collection, handle: "b_was_here", title: "B was here" },
        404,
      );
      await mcpB.fails("entries_delete", { collection: ids.collection, handle: ids.entry }, 404);
      await mcpB.fails(
        "entries_routing_save",
        { collection: h.collection, handle: h.entry, routing_override: "b" },
        404,
      );
      await mcpB.fails("collections_feed_save", { handle: ids.collection, feed_enabled: true }, 404);
      await mcpB.fails("forms_notifications_save", { handle: ids.form, notification_enabled: true }, 404);
      await mcpB.fails("assets_delete", { id: ids.asset }, 404);
      await mcpB.fails("templates_delete", { handle: ids.template }, 404);
      // B's own lists hold nothing of A's.
      for (const name of [
        "collections_list",
        "templates_list",
        "assets_list",
        "globals_list",
        "forms_list",
      ]) {
        const text = JSON.stringify(await mcpB.ok(name));
        for (const marker of secrets.markers) expect(text, `${name} shows ${marker}`).not.toContain(marker);
      }
      expect(await snapshotTenant(restA, secrets, false)).toBe(snapshot);
      expect((await restA.get(`/collections/${h.collection}/entries/b_was_here`)).status).toBe(404);
      // And B's REST view of its own account still works (its token is fine, just elsewhere).
      expect((await restB.get("/collections")).status).toBe(200);
    });
  });
});

describe("HTTP", () => {
  it("answers 401 without a token or with an invalid one", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const response = await postRpc(server, token, toolCallMessage("collections_list"));
      expect(response.status, response.text).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(response.body).toMatchObject({
        jsonrpc: "2.0",
        error: { message: expect.stringMatching(/token/i) },
      });
      expect(response.text).not.toContain("data");
    }
    await expect(mcpClient(server, "not-a-token")).rejects.toThrow(/401|token/i);
  });

  it("answers a tool call without initialize (stateless) as JSON", async () => {
    const response = await postRpc(
      server,
      accountA.token,
      toolCallMessage("collections_get", { handle: "blog" }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.body.result.structuredContent).toEqual(await rest("/collections/blog"));
  });

  it("logs each tool call on stdout: tool, status, duration, never the arguments", async () => {
    await mcpA.fails("entries_get", { collection: "blog", handle: "logged_missing_secret" }, 404);
    await mcpA.ok("entries_get", { collection: "blog", handle: "hello_world" });
    await expect.poll(() => toolCallLogs(server).length).toBeGreaterThan(0);
    const logs = toolCallLogs(server).filter((line) => line.tool === "entries_get");
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: "tool call",
        tool: "entries_get",
        status: 200,
        duration_ms: expect.any(Number),
      }),
    );
    expect(logs).toContainEqual(expect.objectContaining({ tool: "entries_get", status: 404 }));
    expect(server.output.join("\n")).not.toContain("logged_missing_secret");
  });
});

describe("assets_upload_from_url", () => {
  /** An address routed to loopback that the server counts as public (the tests run as root). */
  const PUBLIC_IP = "93.184.216.34";
  let added = false;
  let publicServer: Server;
  let privateServer: Server;
  let publicPort = 0;
  let privatePort = 0;
  const image = png(5, 200);
  const privateHits: string[] = [];

  function listen(app: Server, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      app.once("error", reject);
      app.listen(0, host, () => resolve((app.address() as AddressInfo).port));
    });
  }

  beforeAll(async () => {
    try {
      execFileSync("ip", ["addr", "add", `${PUBLIC_IP}/32`, "dev", "lo"], { stdio: "pipe" });
      added = true;
    } catch (error) {
      if (!/File exists/.test(String((error as { stderr?: Buffer }).stderr ?? error))) throw error;
    }
    privateServer = createServer((req, res) => {
      privateHits.push(req.url ?? "");
      res.writeHead(200, { "content-type": "image/png" }).end(image);
    });
    privatePort = await listen(privateServer, "127.0.0.1");
    publicServer = createServer((req, res) => {
      if (req.url === "/image.png") res.writeHead(200, { "content-type": "image/png" }).end(image);
      else if (req.url === "/to-private")
        res.writeHead(302, { location: `http://127.0.0.1:${privatePort}/secret.png` }).end();
      else if (req.url === "/to-public") res.writeHead(302, { location: "/image.png" }).end();
      else res.writeHead(404).end();
    });
    publicPort = await listen(publicServer, PUBLIC_IP);
  });
  afterAll(async () => {
    await Promise.all(
      [publicServer, privateServer].map(
        (app) => new Promise((resolve) => (app?.listening ? app.close(resolve) : resolve(undefined))),
      ),
    );
    if (added) execFileSync("ip", ["addr", "del", `${PUBLIC_IP}/32`, "dev", "lo"], { stdio: "pipe" });
  });

  it("stores a file downloaded from a public address; its url serves the same bytes", async () => {
    const asset = await ok("assets_upload_from_url", {
      url: `http://${PUBLIC_IP}:${publicPort}/image.png`,
      path: "fetched",
    });
    expect(asset).toEqual({
      id: expect.stringMatching(/^acass_/),
      filename: "image.png",
      content_type: "image/png",
      path: "fetched",
      url: "/assets/fetched/image.png",
      file_size: image.length,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const served = await siteBytes(server, asset.url, accountA.domain);
    expect(served.status).toBe(200);
    expect(served.type).toBe("image/png");
    expect(served.bytes.equals(image)).toBe(true);
    // A redirect to another public URL is followed.
    const redirected = await ok("assets_upload_from_url", {
      url: `http://${PUBLIC_IP}:${publicPort}/to-public`,
      filename: "followed.png",
    });
    expect(redirected).toMatchObject({ filename: "followed.png", file_size: image.length });
  });

  it("refuses loopback, private and IPv4-mapped addresses with 422 on url, fetching nothing", async () => {
    for (const host of [
      `127.0.0.1:${privatePort}`,
      "10.0.0.1",
      `[::1]:${privatePort}`,
      `[::ffff:127.0.0.1]:${privatePort}`,
    ]) {
      const refused = await mcpA.fails(
        "assets_upload_from_url",
        { url: `http://${host}/secret.png` },
        422,
        "url",
      );
      expect(refused.details[0]?.message, host).toMatch(/\w/);
    }
    await mcpA.fails("assets_upload_from_url", { url: "file:///etc/passwd" }, 422, "url");
    expect(privateHits).toEqual([]);
  });

  it("refuses a redirect from a public address to loopback", async () => {
    const refused = await mcpA.fails(
      "assets_upload_from_url",
      { url: `http://${PUBLIC_IP}:${publicPort}/to-private`, filename: "secret.png" },
      422,
      "url",
    );
    expect(refused.details[0]?.message).toMatch(/\w/);
    expect(privateHits).toEqual([]);
    expect(JSON.stringify((await restA.get("/assets")).body)).not.toContain("secret.png");
  });
});

describe("rate budget", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ RATE_LIMIT_PER_MINUTE: "3" });
  });
  afterAll(async () => limited?.stop());

  it("counts every MCP request of a token; past the budget a tool call is answered 429", async () => {
    const [account, other] = await Promise.all([
      createAccount(limited, "Limited"),
      createAccount(limited, "Other"),
    ]);
    // Raw posts, so that the count is exact (the SDK client also sends a notification and a GET).
    const initialize = await postRpc(limited, account.token, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect(initialize.status, initialize.text).toBe(200);
    expect(initialize.body.result.serverInfo).toMatchObject({ name: expect.any(String) });
    const list = await postRpc(limited, account.token, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(list.status, list.text).toBe(200);
    expect(list.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(ALL_TOOLS),
    );
    const third = await postRpc(limited, account.token, toolCallMessage("collections_list"));
    expect(third.status, third.text).toBe(200);
    expect(third.body.result.structuredContent).toMatchObject({ data: [] });
    // The fourth request, a tool call, never reaches the tool: HTTP 429 with REST's body and Retry-After.
    const fourth = await postRpc(limited, account.token, toolCallMessage("collections_list"));
    expect(fourth.status, fourth.text).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(fourth.body).toMatchObject({ error: expect.stringMatching(/too many requests/i) });
    // Log lines are written in the background: the third call's shows up shortly after its answer.
    const calls = () => toolCallLogs(limited).filter((line) => line.tool === "collections_list");
    await expect.poll(() => calls().length).toBeGreaterThan(0);
    expect(calls()).toHaveLength(1);
    // The SDK's client with that token cannot even connect; another token has its own budget.
    await expect(mcpClient(limited, account.token)).rejects.toThrow(/429|too many/i);
    const fresh = await postRpc(limited, other.token, toolCallMessage("collections_list"));
    expect(fresh.status, fresh.text).toBe(200);
  });
});

describe("coverage", () => {
  it("called every tool successfully at least once", () => {
    expect([...called].sort()).toEqual([...ALL_TOOLS].sort());
  });
});
