// The tools the hosted service has beside those of test/mcp.test.ts, through the SDK's client over HTTP:
// the deletes, accounts_list, theme_validate and preview_render_path, each working and refusing bad
// input with a clear error, and the tool list naming all of them. Runs on SQLite, or PostgreSQL with
// TEST_DATABASE=postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { expectPreview, type McpClient, mcpClient } from "./helpers/mcp.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const SERVICE_TOOLS = [
  "collections_delete",
  "blueprints_delete",
  "globals_delete",
  "navigations_delete",
  "forms_delete",
  "navigation_items_list",
  "navigation_items_save",
  "accounts_list",
  "theme_validate",
  "preview_render_path",
];
const READ_TOOLS = ["navigation_items_list", "accounts_list", "theme_validate", "preview_render_path"];

let server: TestServer;
let account: TestAccount;
let rest: Api;
let mcp: McpClient;
let reader: McpClient;
let other: McpClient;

beforeAll(async () => {
  server = await startServer();
  const [first, second] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
  account = first;
  rest = api(server, first);
  const made = await cms(server, [
    "token",
    "create",
    "--account",
    first.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  expect(made.code, made.stderr).toBe(0);
  [mcp, reader, other] = await Promise.all([
    mcpClient(server, first.token),
    mcpClient(server, JSON.parse(made.stdout).token),
    mcpClient(server, second.token),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([mcp?.close(), reader?.close(), other?.close()]);
  await server?.stop();
});

describe("tools/list", () => {
  it("lists every tool the hosted service has, the read ones to a read token too", async () => {
    const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(SERVICE_TOOLS));
    // The project's own tools stay.
    expect(names).toEqual(expect.arrayContaining(["site_preview", "navigations_save", "templates_validate"]));
    const readable = (await reader.client.listTools()).tools.map((tool) => tool.name);
    expect(readable).toEqual(expect.arrayContaining(READ_TOOLS));
    for (const name of SERVICE_TOOLS.filter((tool) => !READ_TOOLS.includes(tool)))
      expect(readable).not.toContain(name);
  });
});

describe("accounts_list", () => {
  it("answers the token's account and what the token may do there", async () => {
    const listed = await mcp.ok("accounts_list");
    expect(listed).toEqual({
      data: [
        {
          id: account.account_id,
          name: "A",
          domain: account.domain,
          scope: "write",
          created_at: expect.any(String),
        },
      ],
    });
    expect((await reader.ok("accounts_list")).data).toEqual([{ ...listed.data[0], scope: "read" }]);
    await mcp.fails("accounts_list", { account_id: "acct_other" }, 422, "account_id");
  });
});

describe("the *_delete tools", () => {
  it("delete a collection, blueprint, global, menu and form by handle, and refuse unknown ones", async () => {
    await mcp.ok("blueprints_save", {
      handle: "note_fields",
      title: "Note",
      fields: [{ handle: "body", type: "text" }],
    });
    await mcp.ok("collections_save", {
      handle: "notes",
      name: "Notes",
      routing: "notes/:handle",
      blueprint_handle: "note_fields",
    });
    await mcp.ok("forms_save", {
      handle: "ask",
      title: "Ask",
      collection_handle: "notes",
      blueprint_handle: "note_fields",
    });
    await mcp.ok("globals_save", { handle: "footer", name: "Footer", fields: [], values: {} });
    await mcp.ok("navigations_save", { handle: "side", title: "Side", items: [{ title: "A", url: "/a" }] });
    await reader.fails("forms_delete", { handle: "ask" }, 403);
    await other.fails("forms_delete", { handle: "ask" }, 404);

    const cases = [
      ["forms_delete", "ask", "forms_get"],
      ["globals_delete", "footer", "globals_get"],
      ["navigations_delete", "side", "navigations_get"],
    ] as const;
    for (const [tool, handle, get] of cases) {
      const { id } = await mcp.ok(get, { handle });
      expect(await mcp.ok(tool, { handle }), tool).toEqual({ id, deleted: true });
      await mcp.fails(get, { handle }, 404);
      await mcp.fails(tool, { handle }, 404);
    }
    // A blueprint entries use is refused until they go, with their collection.
    await mcp.ok("entries_save", { collection: "notes", handle: "first", title: "First" });
    const refused = await mcp.fails("blueprints_delete", { handle: "note_fields" }, 409, "handle");
    expect(refused.error).toMatch(/in use/);
    const collection = await mcp.ok("collections_get", { handle: "notes" });
    expect(await mcp.ok("collections_delete", { handle: "notes" })).toEqual({
      id: collection.id,
      deleted: true,
    });
    await mcp.fails("collections_get", { handle: "notes" }, 404);
    await mcp.fails("entries_get", { collection: "notes", handle: "first" }, 404);
    const blueprint = await mcp.ok("blueprints_get", { handle: "note_fields" });
    expect(await mcp.ok("blueprints_delete", { handle: "note_fields" })).toEqual({
      id: blueprint.id,
      deleted: true,
    });
    await mcp.fails("blueprints_delete", { handle: "note_fields" }, 404);
    await mcp.fails("collections_delete", {}, 422, "handle");
    await mcp.fails("globals_delete", { handle: 7 }, 422, "handle");
  });
});

describe("theme_validate and preview_render_path", () => {
  beforeAll(async () => {
    const post = (path: string, body: unknown) => expectCreated(rest.post(path, body));
    await post("/templates", {
      handle: "theme",
      kind: "layout",
      title: "Theme",
      html: "<main>{{ content_for_layout }}</main>",
    });
    await post("/templates", { handle: "page", title: "Page", html: "<h1>{{ title }}</h1>" });
    await post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: ":handle",
      root_routing: true,
      template_handle: "page",
      blueprint: { fields: [] },
    });
    await post("/collections/pages/entries", { handle: "index", title: "Home" });
    await post("/collections/pages/entries", { handle: "about", title: "About us" });
  });

  it("finds nothing wrong with a sound site, and renders its pages by path", async () => {
    expect(await mcp.ok("theme_validate")).toEqual({ valid: true, issues: [] });
    const home = expectPreview(await mcp.call("preview_render_path", { path: "/" }));
    expect(home).toEqual({ path: "/", status: "ok", http_status: 200, html: "<main><h1>Home</h1></main>" });
    const about = expectPreview(await reader.call("preview_render_path", { path: "/about" }));
    expect(about).toMatchObject({ status: "ok", html: "<main><h1>About us</h1></main>" });
    const missing = expectPreview(await mcp.call("preview_render_path", { path: "/nowhere" }));
    expect(missing).toMatchObject({ path: "/nowhere", status: "not_found", http_status: 404 });
    await mcp.fails("preview_render_path", {}, 422, "path");
    await mcp.fails("preview_render_path", { path: 3 }, 422, "path");
    await mcp.fails("preview_render_path", { path: "/", collection: "pages" }, 422, "collection");
  });

  it("names each problem a theme has, with the records it concerns", async () => {
    const post = (path: string, body: unknown) => expectCreated(rest.post(path, body));
    // Entries that name no template where there is no `index`, and an index page half set up.
    await post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
      index_routing: "blog",
      blueprint: { fields: [] },
    });
    await post("/collections/blog/entries", { handle: "hello", title: "Hello" });
    // An entry whose routing later takes a date it does not have.
    await post("/collections", {
      name: "News",
      handle: "news",
      routing: "news/:handle",
      template_handle: "page",
      blueprint: { fields: [] },
    });
    await post("/collections/news/entries", { handle: "launch", title: "Launch" });
    const rerouted = await rest.put("/collections/news", { routing: "news/:year/:handle" });
    expect(rerouted.status, rerouted.text).toBe(200);
    // A child entry whose parent is deleted.
    await post("/collections", {
      name: "Sections",
      handle: "sections",
      routing: "sections/:handle",
      template_handle: "page",
      blueprint: { fields: [] },
    });
    await post("/collections", {
      name: "Docs",
      handle: "docs",
      routing: ":parent/:handle",
      template_handle: "page",
      blueprint: { fields: [{ handle: "parent", type: "entity", options: { collection: "sections" } }] },
    });
    await post("/collections/sections/entries", { handle: "guides", title: "Guides" });
    await post("/collections/docs/entries", { handle: "intro", title: "Intro", parent: "guides" });
    expect((await rest.delete("/collections/sections/entries/guides")).status).toBe(204);
    // Two pages at one path: an index page where an entry is.
    await post("/collections", {
      name: "Events",
      handle: "events",
      routing: "events/:handle",
      template_handle: "page",
      index_routing: "about",
      index_template_handle: "page",
      blueprint: { fields: [] },
    });
    const validation = await mcp.ok("theme_validate");
    expect(await reader.ok("theme_validate")).toEqual(validation);
    expect(validation.valid).toBe(false);
    const issue = (check: string, fields: Record<string, unknown>) =>
      expect.objectContaining({ check, message: expect.any(String), ...fields });
    expect(validation.issues).toEqual(
      expect.arrayContaining([
        issue("missing_template", { collection_handle: "blog", template_handle: "index" }),
        issue("missing_index_config", { collection_handle: "blog" }),
        issue("orphaned_entry", { collection_handle: "docs", entry_handle: "intro" }),
        issue("duplicate_content_path", { content_path: "/about" }),
        issue("missing_published_at", { collection_handle: "news", entry_handle: "launch" }),
      ]),
    );
    const message = validation.issues.find((found: any) => found.check === "orphaned_entry").message;
    expect(message).toBe(
      "entry 'intro' of collection 'docs' has no 'parent' entry, which the routing ':parent/:handle' needs: its page path cannot be made",
    );
    await mcp.fails("theme_validate", { strict: true }, 422, "strict");
    expect(await other.ok("theme_validate")).toEqual({ valid: true, issues: [] });
  });
});
