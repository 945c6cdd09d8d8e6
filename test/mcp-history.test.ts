// The tool interface's history tools: revisions of entries, globals and
// templates, the trash and preview links, each called with the SDK's client and checked against REST.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { type McpClient, mcpClient } from "./helpers/mcp.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let rest: Api;
let mcp: McpClient;
let reader: McpClient;
let domain: string;

beforeAll(async () => {
  server = await startServer();
  const account = await createAccount(server, "History");
  domain = account.domain;
  rest = api(server, account);
  mcp = await mcpClient(server, account.token);
  const other = await createAccount(server, "Other");
  reader = await mcpClient(server, other.token);
  await mcp.ok("templates_save", { handle: "note", html: "<h1>{{ entry.title }}</h1>{{ body }}" });
  const made = await rest.post("/collections", {
    name: "Notes",
    handle: "notes",
    routing: "notes/:handle",
    template_handle: "note",
    blueprint: { handle: "note_fields", fields: [{ handle: "body", type: "text" }] },
  });
  expect(made.status, made.text).toBe(201);
});
afterAll(async () => {
  await Promise.all([mcp?.close(), reader?.close()]);
  await server?.stop();
});

describe("revisions", () => {
  it("lists, reads and restores an entry's revisions", async () => {
    const note = { collection: "notes", handle: "first_note" };
    await mcp.ok("entries_save", { ...note, title: "One", values: { body: "first" } });
    await mcp.ok("entries_save", { ...note, title: "Two", values: { body: "second" } });
    const list = await mcp.ok("entries_revisions_list", note);
    expect(list.data.map((revision: { number: number }) => revision.number)).toEqual([2, 1]);
    const first = await mcp.ok("entries_revisions_get", { ...note, revision: 1 });
    expect(first.state).toMatchObject({ title: "One", values: { body: "first" } });
    const restored = await mcp.ok("entries_revisions_restore", { ...note, revision: 1 });
    expect(restored).toMatchObject({ handle: "first_note", title: "One", body: "first" });
    expect((await rest.get("/collections/notes/entries/first_note")).body).toEqual(restored);
    expect((await mcp.ok("entries_revisions_list", note)).data[0].number).toBe(3);
    await mcp.fails("entries_revisions_get", { ...note, revision: 9 }, 404);
    // Another account's token sees no such entry.
    await reader.fails("entries_revisions_list", note, 404);
  });

  it("does the same for globals and templates", async () => {
    await mcp.ok("globals_save", {
      handle: "site_info",
      name: "Site",
      fields: [{ handle: "phone", type: "text" }],
      values: { phone: "1" },
    });
    await mcp.ok("globals_save", { handle: "site_info", values: { phone: "2" } });
    expect((await mcp.ok("globals_revisions_list", { handle: "site_info" })).data).toHaveLength(2);
    expect((await mcp.ok("globals_revisions_get", { handle: "site_info", revision: 1 })).state).toMatchObject(
      {
        values: { phone: "1" },
      },
    );
    expect(await mcp.ok("globals_revisions_restore", { handle: "site_info", revision: 1 })).toMatchObject({
      phone: "1",
    });

    await mcp.ok("templates_save", { handle: "note", html: "<h2>{{ entry.title }}</h2>" });
    const templates = await mcp.ok("templates_revisions_list", { handle: "note" });
    expect(templates.data.map((revision: { number: number }) => revision.number)).toEqual([2, 1]);
    expect((await mcp.ok("templates_revisions_get", { handle: "note", revision: 2 })).state).toMatchObject({
      html: "<h2>{{ entry.title }}</h2>",
    });
    expect(await mcp.ok("templates_revisions_restore", { handle: "note", revision: 1 })).toMatchObject({
      html: "<h1>{{ entry.title }}</h1>{{ body }}",
    });
  });
});

describe("trash", () => {
  it("lists a deleted entry, restores it with its ID, then purges it", async () => {
    const saved = await mcp.ok("entries_save", { collection: "notes", handle: "binned", title: "Binned" });
    await mcp.ok("entries_delete", { collection: "notes", handle: "binned" });
    const trash = await mcp.ok("trash_list");
    const item = trash.data.find((entry: { record_id: string }) => entry.record_id === saved.id);
    expect(item).toMatchObject({ type: "entry", handle: "binned", title: "Binned" });
    const restored = await mcp.ok("trash_restore", { id: item.id });
    expect(restored).toMatchObject({ type: "entry", record: { id: saved.id, handle: "binned" } });
    expect((await rest.get("/collections/notes/entries/binned")).status).toBe(200);

    await mcp.ok("entries_delete", { collection: "notes", handle: "binned" });
    const again = (await mcp.ok("trash_list")).data.find(
      (entry: { record_id: string }) => entry.record_id === saved.id,
    );
    expect(await mcp.ok("trash_purge", { id: again.id })).toEqual({ id: again.id, deleted: true });
    expect((await mcp.ok("trash_list")).data.map((entry: { id: string }) => entry.id)).not.toContain(
      again.id,
    );
    await reader.fails("trash_restore", { id: again.id }, 404);
  });
});

describe("preview links", () => {
  it("makes a link that shows a draft on the site, which a read token may not make", async () => {
    await mcp.ok("entries_save", {
      collection: "notes",
      handle: "secret_draft",
      title: "Not yet",
      published: false,
      values: { body: "draft body" },
    });
    const link = await mcp.ok("entries_preview_link", { collection: "notes", handle: "secret_draft" });
    expect(link).toMatchObject({ url: expect.stringContaining(`${domain}`), expires_at: expect.any(String) });
    const url = new URL(link.url);
    const page = await siteGet(server, `${url.pathname}${url.search}`, domain);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain("Not yet");
    expect(page.headers["x-robots-tag"]).toBe("noindex");
    expect((await siteGet(server, "/notes/secret_draft", domain)).status).toBe(404);
  });
});
