// The trash: a deleted entry, global, template, navigation, form or asset leaves every
// read but the trash's, comes back with its ID, handle and links, and is purged by DELETE or, past
// TRASH_KEEP_DAYS, by the server's sweep. Everything goes through HTTP against the real server.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { expectError, ISO } from "./helpers/assertions.ts";
import { assetFile } from "./helpers/asset-files.ts";
import { createAccount } from "./helpers/cli.ts";
import { readOnlyApi } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

let server: TestServer;
let client: Api;
/** Another account on its own path. */
let other: Api;
/** The other account's token on the main account's path. */
let otherOnMain: Api;
let reader: Api;

function ok<T = any>(response: ApiResponse<T>, status = 200): T {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

async function trash(target = client): Promise<any[]> {
  return ok(await target.get("/trash")).data;
}

/** The trash item of a record, checking its listed shape. */
async function trashed(recordId: string): Promise<any> {
  const item = (await trash()).find((listed) => listed.record_id === recordId);
  expect(item, `no trash item for ${recordId}`).toBeDefined();
  expect(Object.keys(item).sort()).toEqual(["deleted_at", "handle", "id", "record_id", "title", "type"]);
  expect(item.id).toMatch(/^trash_/);
  expect(item.deleted_at).toMatch(ISO);
  return item;
}

const bytesOf = (text: string) => Buffer.from(text).toString("base64");
const storedFile = (assetId: string) => assetFile(server, client.account.account_id, assetId);

beforeAll(async () => {
  server = await startServer();
  const [main, second] = await Promise.all([createAccount(server, "Main"), createAccount(server, "Other")]);
  client = api(server, main);
  other = api(server, second);
  otherOnMain = api(server, main, second.token);
  reader = await readOnlyApi(server, main);
  const collections = [
    { name: "Sections", handle: "sections", routing: "sections/:handle", fields: [] },
    {
      name: "Docs",
      handle: "docs",
      routing: "docs/:section/:handle",
      fields: [{ handle: "section", type: "entity", options: { collection: "sections" } }],
    },
    { name: "Pages", handle: "pages", routing: ":handle", fields: [{ handle: "related", type: "entity" }] },
    {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      fields: [{ handle: "message", type: "text" }],
      blueprint: "message-bp",
    },
  ];
  for (const { fields, blueprint, ...collection } of collections) {
    const body = { ...collection, blueprint: { handle: blueprint ?? `${collection.handle}-bp`, fields } };
    ok(await client.post("/collections", body), 201);
  }
});
afterAll(() => server?.stop());

describe("each type: delete, list, restore, delete again, purge", () => {
  it("an entry comes back with the references to it and the menu items linking it", async () => {
    const guides = ok(
      await client.post("/collections/sections/entries", { title: "Guides", handle: "guides" }),
      201,
    );
    const intro = ok(
      await client.post("/collections/docs/entries", { title: "Intro", handle: "intro", section: "guides" }),
      201,
    );
    expect(intro.content_path).toBe("/docs/guides/intro");
    ok(
      await client.post("/collections/pages/entries", { title: "Home", handle: "home", related: guides.id }),
      201,
    );
    ok(await client.post("/navigations", { title: "Main", handle: "main" }), 201);
    const link = ok(
      await client.post("/navigations/main/items", {
        title: "Guides",
        collection_handle: "sections",
        entry_handle: "guides",
      }),
      201,
    );

    expect((await client.delete("/collections/sections/entries/guides")).status).toBe(204);
    expectError(await client.get(`/collections/sections/entries/${guides.id}`), 404);
    expect(ok(await client.get("/collections/sections/entries")).data).toEqual([]);
    expect(ok(await client.get(`/navigations/main/items/${link.id}`)).entity).toBeUndefined();
    const item = await trashed(guides.id);
    expect(item).toMatchObject({ type: "entry", handle: "guides", title: "Guides" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({
      type: "entry",
      record: ok(await client.get("/collections/sections/entries/guides")),
    });
    expect(restored.record).toMatchObject({
      id: guides.id,
      handle: "guides",
      content_path: "/sections/guides",
    });
    expect((await trash()).find((listed) => listed.id === item.id)).toBeUndefined();
    // The entity value from another entry expands again, the menu item links it again...
    expect(ok(await client.get("/collections/pages/entries/home")).related.id).toBe(guides.id);
    expect(ok(await client.get(`/navigations/main/items/${link.id}`)).entity).toMatchObject({
      id: guides.id,
      url: "/sections/guides",
    });
    // ...and the reference row is back: a rename of the section moves the doc that routes under it.
    ok(await client.put("/collections/sections/entries/guides", { handle: "manuals" }));
    expect(ok(await client.get("/collections/docs/entries/intro")).content_path).toBe("/docs/manuals/intro");

    expect((await client.delete(`/collections/sections/entries/${guides.id}`)).status).toBe(204);
    const again = await trashed(guides.id);
    expect(again.id).not.toBe(item.id);
    expect((await client.delete(`/trash/${again.id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === guides.id)).toBeUndefined();
    expectError(await client.post(`/trash/${again.id}/restore`), 404);
    expectError(await client.delete(`/trash/${again.id}`), 404);
  });

  it("a global comes back with its blueprint and values", async () => {
    const created = ok(
      await client.post("/globals", {
        name: "Contact",
        handle: "contact",
        fields: [{ handle: "phone", type: "text" }],
        phone: "555-0100",
      }),
      201,
    );
    expect((await client.delete("/globals/contact")).status).toBe(204);
    expectError(await client.get("/globals/contact"), 404);
    expect(ok(await client.get("/globals")).data).toEqual([]);
    const item = await trashed(created.id);
    expect(item).toMatchObject({ type: "global", handle: "contact", title: "Contact" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({ type: "global", record: ok(await client.get("/globals/contact")) });
    expect(restored.record).toMatchObject({ id: created.id, handle: "contact", phone: "555-0100" });
    expect(restored.record.blueprint).toEqual(created.blueprint);

    expect((await client.delete(`/globals/${created.id}`)).status).toBe(204);
    expect((await client.delete(`/trash/${(await trashed(created.id)).id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === created.id)).toBeUndefined();
  });

  it("a template comes back", async () => {
    const created = ok(await client.post("/templates", { handle: "card", html: "<p>{{ title }}</p>" }), 201);
    expect((await client.delete("/templates/card")).status).toBe(204);
    expectError(await client.get("/templates/card"), 404);
    expect(ok(await client.get("/templates")).data.map((template: any) => template.handle)).not.toContain(
      "card",
    );
    const item = await trashed(created.id);
    expect(item).toMatchObject({ type: "template", handle: "card", title: "card" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({ type: "template", record: created });
    expect(ok(await client.get(`/templates/${created.id}`))).toEqual(created);

    expect((await client.delete("/templates/card")).status).toBe(204);
    expect((await client.delete(`/trash/${(await trashed(created.id)).id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === created.id)).toBeUndefined();
  });

  it("a navigation comes back with its item tree", async () => {
    const created = ok(await client.post("/navigations", { title: "Footer", handle: "footer" }), 201);
    const parent = ok(await client.post("/navigations/footer/items", { title: "About", url: "/about" }), 201);
    ok(
      await client.post("/navigations/footer/items", { title: "Team", url: "/team", parent_id: parent.id }),
      201,
    );
    const before = ok(await client.get("/navigations/footer"));
    expect(before.items[0].children[0].title).toBe("Team");

    expect((await client.delete("/navigations/footer")).status).toBe(204);
    expectError(await client.get("/navigations/footer"), 404);
    expectError(await client.get(`/navigations/${created.id}/items/${parent.id}`), 404);
    const item = await trashed(created.id);
    expect(item).toMatchObject({ type: "navigation", handle: "footer", title: "Footer" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({ type: "navigation", record: before });
    expect(ok(await client.get("/navigations/footer"))).toEqual(before);

    expect((await client.delete("/navigations/footer")).status).toBe(204);
    expect((await client.delete(`/trash/${(await trashed(created.id)).id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === created.id)).toBeUndefined();
  });

  it("a form comes back", async () => {
    const created = ok(
      await client.post("/forms", {
        title: "Feedback",
        handle: "feedback",
        collection_handle: "messages",
        blueprint_handle: "message-bp",
      }),
      201,
    );
    expect((await client.delete("/forms/feedback")).status).toBe(204);
    expectError(await client.get("/forms/feedback"), 404);
    expect(ok(await client.get("/forms")).data).toEqual([]);
    const item = await trashed(created.id);
    expect(item).toMatchObject({ type: "form", handle: "feedback", title: "Feedback" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({ type: "form", record: created });
    expect(ok(await client.get("/forms/feedback"))).toEqual(created);

    expect((await client.delete("/forms/feedback")).status).toBe(204);
    expect((await client.delete(`/trash/${(await trashed(created.id)).id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === created.id)).toBeUndefined();
  });

  it("an asset comes back with its bytes; they go when it is purged", async () => {
    const asset = { filename: "note.txt", path: "docs", data: bytesOf("kept bytes") };
    const created = ok(await client.post("/assets", { asset }), 201);
    const served = () => siteRequest(server, "/assets/docs/note.txt", client.account.domain);
    expect((await served()).text).toBe("kept bytes");

    expect((await client.delete(`/assets/${created.id}`)).status).toBe(204);
    expectError(await client.get(`/assets/${created.id}`), 404);
    expect(ok(await client.get("/assets")).data).toEqual([]);
    expect((await served()).status).toBe(404);
    expect(existsSync(storedFile(created.id))).toBe(true);
    const item = await trashed(created.id);
    expect(item).toMatchObject({ type: "asset", handle: "docs/note.txt", title: "note.txt" });

    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored).toEqual({ type: "asset", record: created });
    expect(ok(await client.get(`/assets/${created.id}`))).toEqual(created);
    const again = await served();
    expect([again.status, again.text]).toEqual([200, "kept bytes"]);

    expect((await client.delete(`/assets/${created.id}`)).status).toBe(204);
    expect((await client.delete(`/trash/${(await trashed(created.id)).id}`)).status).toBe(204);
    expect((await trash()).find((listed) => listed.record_id === created.id)).toBeUndefined();
    expect(existsSync(storedFile(created.id))).toBe(false);
  });
});

describe("a restore records a revision, as every create, update and restore does", () => {
  /** Deletes `path`, restores its trash item, and answers the record's revisions before and after. */
  async function deleteAndRestore(path: string, id: string) {
    const before = ok(await client.get(`${path}/revisions`)).data;
    expect((await client.delete(path)).status).toBe(204);
    const restored = ok(await client.post(`/trash/${(await trashed(id)).id}/restore`));
    const after = ok(await client.get(`${path}/revisions`)).data;
    const [last] = before;
    // Numbered after the record's last revision, which stayed while it was in the trash.
    expect(after.map((revision: any) => revision.number)).toEqual([
      last.number + 1,
      ...before.map((revision: any) => revision.number),
    ]);
    expect(after[0]).toEqual({
      number: last.number + 1,
      created_at: expect.stringMatching(ISO),
      token_id: last.token_id,
    });
    expect(last.token_id).toMatch(/^tok_/);
    const newest = ok(await client.get(`${path}/revisions/${last.number + 1}`)).state;
    // The record came back as it was deleted: its new revision's state is its last one's.
    expect(newest).toEqual(ok(await client.get(`${path}/revisions/${last.number}`)).state);
    return { record: restored.record, state: newest };
  }

  it("an entry's new revision holds the restored entry", async () => {
    const entries = "/collections/pages/entries";
    const created = ok(await client.post(entries, { title: "About", handle: "about" }), 201);
    ok(await client.put(`${entries}/about`, { title: "About us" }));
    const { record, state } = await deleteAndRestore(`${entries}/about`, created.id);
    expect(record).toMatchObject({ id: created.id, title: "About us", content_path: "/about" });
    expect(state).toMatchObject({
      id: record.id,
      handle: record.handle,
      title: record.title,
      published: record.published,
      content_path: record.content_path,
      routing_override: null,
      created_at: record.created_at,
      updated_at: record.updated_at,
      values: {},
    });
  });

  it("a global's and a template's too", async () => {
    const global = ok(
      await client.post("/globals", {
        name: "Footer",
        handle: "footer",
        fields: [{ handle: "note", type: "text" }],
        note: "hi",
      }),
      201,
    );
    const restoredGlobal = await deleteAndRestore("/globals/footer", global.id);
    expect(restoredGlobal.state).toMatchObject({ id: global.id, handle: "footer", values: { note: "hi" } });
    expect(restoredGlobal.state.blueprint.fields.map((field: any) => field.handle)).toEqual(["note"]);

    const template = ok(
      await client.post("/templates", { handle: "badge", html: "<b>{{ title }}</b>" }),
      201,
    );
    const restoredTemplate = await deleteAndRestore("/templates/badge", template.id);
    expect(restoredTemplate.state).toMatchObject({
      id: template.id,
      handle: "badge",
      html: "<b>{{ title }}</b>",
    });
  });
});

describe("refusals", () => {
  it("409 naming handle when the handle was taken meanwhile; nothing changes", async () => {
    const first = ok(
      await client.post("/collections/sections/entries", { title: "News", handle: "news" }),
      201,
    );
    expect((await client.delete("/collections/sections/entries/news")).status).toBe(204);
    const second = ok(
      await client.post("/collections/sections/entries", { title: "News 2", handle: "news" }),
      201,
    );
    const item = await trashed(first.id);
    expectError(await client.post(`/trash/${item.id}/restore`), 409, "handle");
    expect(ok(await client.get("/collections/sections/entries/news")).id).toBe(second.id);
    expect((await trashed(first.id)).id).toBe(item.id);

    const asset = { filename: "logo.txt", data: bytesOf("one") };
    const gone = ok(await client.post("/assets", { asset }), 201);
    expect((await client.delete(`/assets/${gone.id}`)).status).toBe(204);
    ok(await client.post("/assets", { asset: { ...asset, data: bytesOf("two") } }), 201);
    expectError(await client.post(`/trash/${(await trashed(gone.id)).id}/restore`), 409, "handle");
  });

  it("404 saying so when the entry's collection is gone", async () => {
    const temp = { name: "Temp", handle: "temp", routing: "temp/:handle", blueprint: { fields: [] } };
    ok(await client.post("/collections", temp), 201);
    const entry = ok(await client.post("/collections/temp/entries", { title: "T", handle: "t" }), 201);
    expect((await client.delete("/collections/temp/entries/t")).status).toBe(204);
    expect((await client.delete("/collections/temp")).status).toBe(204);
    const response = await client.post(`/trash/${(await trashed(entry.id)).id}/restore`);
    expectError(response, 404);
    expect(response.body.error).toMatch(/collection/);
  });

  it("another account's token cannot list, restore or purge; another account's item is 404", async () => {
    const template = ok(await client.post("/templates", { handle: "private", html: "x" }), 201);
    expect((await client.delete("/templates/private")).status).toBe(204);
    const item = await trashed(template.id);
    expectError(await otherOnMain.get("/trash"), 403);
    expectError(await otherOnMain.post(`/trash/${item.id}/restore`), 403);
    expectError(await otherOnMain.delete(`/trash/${item.id}`), 403);
    expect(await trash(other)).toEqual([]);
    expectError(await other.post(`/trash/${item.id}/restore`), 404);
    expectError(await other.delete(`/trash/${item.id}`), 404);
    // A read-only token lists but does not restore or purge.
    expect(ok(await reader.get("/trash")).data.map((listed: any) => listed.id)).toContain(item.id);
    expectError(await reader.post(`/trash/${item.id}/restore`), 403);
    expectError(await reader.delete(`/trash/${item.id}`), 403);
    expect((await trashed(template.id)).id).toBe(item.id);
  });

  it("an entry away while its override path was taken stays in the trash; a template deleted meanwhile is dropped", async () => {
    const graphql = (query: string) =>
      client.raw("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables: { a: client.account.account_id } }),
      });
    const move = (handle: string) =>
      graphql(`mutation ($a: ID!) { entryRoutingUpdate(account_id: $a, collection_id: "sections", id: "${handle}",
        input: { routing_override: "about/us" }) { content_path } }`);
    ok(await client.post("/templates", { handle: "away", html: "a" }), 201);
    const away = ok(
      await client.post("/collections/sections/entries", {
        title: "Away",
        handle: "away",
        template_handle: "away",
      }),
      201,
    );
    expect((await move("away")).body.data.entryRoutingUpdate).toEqual({ content_path: "/about/us" });
    expect((await client.delete("/collections/sections/entries/away")).status).toBe(204);
    expect((await client.delete("/templates/away")).status).toBe(204);
    ok(await client.post("/collections/sections/entries", { title: "Here", handle: "here" }), 201);
    expect((await move("here")).body.data.entryRoutingUpdate).toEqual({ content_path: "/about/us" });
    const item = await trashed(away.id);
    const refused = await client.post(`/trash/${item.id}/restore`);
    expect(expectError(refused, 422, "routing_override")).toEqual([
      { path: "routing_override", message: "is already the path of entry 'here'" },
    ]);
    expect((await trashed(away.id)).id).toBe(item.id);
    // Once the path is free again, it comes back there, naming no template that is gone.
    expect((await client.delete("/collections/sections/entries/here")).status).toBe(204);
    const restored = ok(await client.post(`/trash/${item.id}/restore`));
    expect(restored.record).toMatchObject({
      handle: "away",
      content_path: "/about/us",
      template_handle: null,
    });
  });

  it("GraphQL lists, restores and purges with the same rules", async () => {
    const created = ok(await client.post("/templates", { handle: "gql", html: "g" }), 201);
    expect((await client.delete("/templates/gql")).status).toBe(204);
    const item = await trashed(created.id);
    const graphql = async (query: string, target = client) =>
      (
        await target.raw("/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        })
      ).body;
    const account = client.account.account_id;
    const listed = await graphql(
      `{ trash(account_id: "${account}") { data { id type handle } pagination { total } } }`,
    );
    expect(listed.data.trash.data).toContainEqual({ id: item.id, type: "template", handle: "gql" });
    const restore = `mutation { trashRestore(account_id: "${account}", id: "${item.id}") {
      type record { ... on Template { id handle } } } }`;
    expect((await graphql(restore, other)).errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await graphql(restore)).data.trashRestore).toEqual({
      type: "template",
      record: { id: created.id, handle: "gql" },
    });
    expect((await client.delete("/templates/gql")).status).toBe(204);
    const purge = `mutation { trashPurge(account_id: "${account}", id: "${(await trashed(created.id)).id}") }`;
    expect((await graphql(purge)).data.trashPurge).toMatch(/^trash_/);
  });
});

describe("expiry", () => {
  it("TRASH_KEEP_DAYS=0: the sweep at start purges the trash, asset bytes included", async () => {
    const asset = ok(
      await client.post("/assets", { asset: { filename: "old.txt", data: bytesOf("old") } }),
      201,
    );
    expect((await client.delete(`/assets/${asset.id}`)).status).toBe(204);
    expect((await trash()).length).toBeGreaterThan(1);
    expect(existsSync(storedFile(asset.id))).toBe(true);

    server = await server.restart({ TRASH_KEEP_DAYS: "0" });
    client = api(server, client.account);
    const deadline = Date.now() + 5_000;
    // The sweep removes the rows, then the bytes: both are waited for.
    const swept = async () => (await trash()).length === 0 && !existsSync(storedFile(asset.id));
    while (!(await swept()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await trash()).toEqual([]);
    expect(existsSync(storedFile(asset.id))).toBe(false);
  });
});
