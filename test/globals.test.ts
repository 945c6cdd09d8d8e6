// Globals over REST (content-api.md "Global", "Endpoints > Globals", "Blueprint"; decisions.md "REST
// decisions"). Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api, ApiResponse } from "./helpers/api.ts";
import { expect422, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { mainPagedOther } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own global handles. */
let client: Api;
/** Only the globals of the pagination tests. */
let paged: Api;
/** Another account, with its own token. */
let other: Api;
/** The other account's token aimed at the main account's path. */
let otherOnMain: Api;
/** A read-scoped token of the main account. */
let reader: Api;

const PAGED_COUNT = 25;
const pad = (n: number) => String(n).padStart(2, "0");

const fixture = { postId: "", postPath: "" };

const field = (handle: string, type: string, position: number, options: Record<string, unknown> = {}) => ({
  handle,
  display: handle.charAt(0).toUpperCase() + handle.slice(1).replace(/_/g, " "),
  type,
  position,
  options,
});

async function createGlobal(body: Record<string, unknown>) {
  return expectCreated(client.post("/globals", body));
}

async function globalCount(): Promise<number> {
  return (await client.get("/globals")).body.pagination.total;
}

async function blueprintCount(): Promise<number> {
  return (await client.get("/blueprints")).body.pagination.total_count;
}

beforeAll(async () => {
  server = await startServer();
  ({ client, paged, other, otherOnMain, reader } = await mainPagedOther(server));

  const blog = await client.post("/collections", {
    name: "Blog",
    handle: "blog",
    routing: "blog/:handle",
    blueprint: { handle: "post", fields: [{ handle: "body", type: "text" }] },
  });
  expect(blog.status, blog.text).toBe(201);
  const post = await client.post("/collections/blog/entries", {
    handle: "hello",
    title: "Hello",
    body: "Hi",
  });
  expect(post.status, post.text).toBe(201);
  fixture.postId = post.body.id;
  fixture.postPath = post.body.content_path;

  // Names sort differently from handles and from creation order.
  const order = Array.from({ length: PAGED_COUNT }, (_, i) => ((i * 7) % PAGED_COUNT) + 1);
  expect(new Set(order).size).toBe(PAGED_COUNT);
  for (let i = 0; i < order.length; i += 5) {
    const batch = order
      .slice(i, i + 5)
      .map((n) =>
        paged.post("/globals", { name: `Global ${pad(n)}`, handle: `g_${pad(PAGED_COUNT + 1 - n)}` }),
      );
    for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.stop());

describe("create", () => {
  it("creates with 201: its own blueprint, values as top-level keys, and nothing else", async () => {
    const created = await client.post("/globals", {
      name: "Footer",
      handle: "footer",
      fields: [
        { handle: "copyright", type: "text" },
        { handle: "year", type: "number", display: "Copyright year" },
      ],
      copyright: "© Acme",
      year: 2024,
      not_a_field: "dropped",
      id: "stgbl_forged",
      created_at: "1999-01-01T00:00:00Z",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^stgbl_/),
      handle: "footer",
      name: "Footer",
      blueprint: {
        id: expect.stringMatching(/^blprt_/),
        handle: "global:footer",
        title: "Footer",
        fields: [field("copyright", "text", 0), { ...field("year", "number", 1), display: "Copyright year" }],
      },
      copyright: "© Acme",
      year: 2024,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(60_000);
    expect((await client.get("/globals/footer")).body).toEqual(created.body);
  });

  it("creates without fields or values", async () => {
    const created = await createGlobal({ name: "Empty", handle: "empty" });
    expect(created.blueprint.fields).toEqual([]);
    expect(Object.keys(created).sort()).toEqual([
      "blueprint",
      "created_at",
      "handle",
      "id",
      "name",
      "updated_at",
    ]);
  });

  it("generates a snake_case handle from the name when none is sent", async () => {
    expect((await createGlobal({ name: "Site Settings!" })).handle).toBe("site_settings");
    expect((await createGlobal({ name: "2024 Café Promo" })).handle).toBe("cafe_promo");
    expect422(await client.post("/globals", { name: "2024" }), "handle");
  });

  it("requires snake_case handles (422, path handle)", async () => {
    const before = await globalCount();
    for (const handle of [
      "Footer",
      "my-footer",
      "1st",
      "_private",
      "foot er",
      "stgbl_01m86qk4y29vy2ej45c6gzafpx",
      "",
      "a".repeat(65),
    ]) {
      expect422(await client.post("/globals", { name: "Bad", handle }), "handle");
    }
    expect(await globalCount()).toBe(before);
    expect((await createGlobal({ name: "Ok", handle: "a1_b2" })).handle).toBe("a1_b2");
  });

  it("refuses a handle the account already uses (422, path handle) and creates no blueprint", async () => {
    await createGlobal({ name: "Header", handle: "header", fields: [{ handle: "logo", type: "image" }] });
    const globals = await globalCount();
    const blueprints = await blueprintCount();
    expect422(await client.post("/globals", { name: "Another header", handle: "header" }), "handle");
    expect422(await client.post("/globals", { name: "Header" }), "handle");
    expect(await globalCount()).toBe(globals);
    expect(await blueprintCount()).toBe(blueprints);
    expect((await client.get("/globals/header")).body.name).toBe("Header");
  });

  it("ends concurrent POSTs of one handle with one 201 and 422s on handle", async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.post("/globals", { name: `Race ${i}`, handle: "race" })),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) expect422(response, "handle");
    expect((await client.get("/globals?handle=race")).body.data).toHaveLength(1);
    expect((await client.get("/blueprints/global:race")).status).toBe(200);
  });

  it("requires a name (422, path name)", async () => {
    expect422(await client.post("/globals", { handle: "nameless" }), "name");
    expect422(await client.post("/globals", { name: "  ", handle: "nameless" }), "name");
    expectError(await client.get("/globals/nameless"), 404);
  });

  it("validates fields like blueprint fields (422 naming the field) and creates nothing", async () => {
    const blueprints = await blueprintCount();
    expect422(
      await client.post("/globals", {
        name: "F",
        handle: "bad_fields",
        fields: [{ handle: "x", type: "nope" }],
      }),
      "fields[0].type",
    );
    expect422(
      await client.post("/globals", {
        name: "F",
        handle: "bad_fields",
        fields: [{ handle: "name", type: "text" }],
      }),
      "fields[0].handle",
    );
    expect422(
      await client.post("/globals", {
        name: "F",
        handle: "bad_fields",
        fields: [
          { handle: "a", type: "text" },
          { handle: "a", type: "text" },
        ],
      }),
      "fields[1].handle",
    );
    expectError(await client.get("/globals/bad_fields"), 404);
    expect(await blueprintCount()).toBe(blueprints);
  });

  it("validates values against the fields (422 on each field's path) and creates nothing", async () => {
    const response = await client.post("/globals", {
      name: "Typed",
      handle: "typed",
      fields: [
        { handle: "count", type: "number" },
        { handle: "flag", type: "toggle" },
        { handle: "kind", type: "enumerate", options: { enumerations: ["a", "b"] } },
        { handle: "items", type: "list" },
      ],
      count: "three",
      flag: "yes",
      kind: "c",
      items: { not: "a list" },
    });
    expect422(response, "count", "flag", "kind", "items");
    expectError(await client.get("/globals/typed"), 404);
  });

  it("stores each field type's value in its returned format", async () => {
    const created = await createGlobal({
      name: "Everything",
      handle: "everything",
      fields: [
        { handle: "text", type: "text" },
        { handle: "html", type: "rich_text" },
        { handle: "amount", type: "number" },
        { handle: "flag", type: "toggle" },
        { handle: "kind", type: "enumerate", options: { enumerations: ["a", "b"] } },
        { handle: "logo", type: "image" },
        { handle: "clip", type: "video" },
        { handle: "links", type: "list" },
        { handle: "meta", type: "dictionary" },
        { handle: "cleared", type: "text" },
      ],
      text: "plain",
      html: "<p>rich</p>",
      amount: 1.5,
      flag: false,
      kind: "b",
      logo: "brand/logo.png",
      clip: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      links: ["/a", "/b"],
      meta: { twitter: "@acme" },
      cleared: null,
    });
    const values = {
      text: "plain",
      html: "<p>rich</p>",
      amount: 1.5,
      flag: false,
      kind: "b",
      logo: "/assets/brand/logo.png",
      clip: {
        url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        video_id: "dQw4w9WgXcQ",
        thumbnail: "https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
      },
      links: ["/a", "/b"],
      meta: { twitter: "@acme" },
    };
    expect(created).toMatchObject(values);
    expect(created).not.toHaveProperty("cleared");
    expect((await client.get("/globals/everything")).body).toMatchObject(values);
  });

  it("expands entity values; a bare entry handle resolves only through options.collection", async () => {
    const entry = (id: string) => ({
      id,
      title: "Hello",
      handle: "hello",
      body: "Hi",
      content_path: fixture.postPath,
      published_at: null,
    });
    const created = await createGlobal({
      name: "Featured",
      handle: "featured",
      fields: [
        { handle: "by_id", type: "entity" },
        { handle: "by_pair", type: "entity" },
        { handle: "by_handle", type: "entity", options: { collection: "blog" } },
        { handle: "many", type: "entity", options: { multiple: true } },
      ],
      by_id: fixture.postId,
      by_pair: "blog:hello",
      by_handle: "hello",
      many: [fixture.postId],
    });
    expect(created).toMatchObject({
      by_id: entry(fixture.postId),
      by_pair: entry(fixture.postId),
      by_handle: entry(fixture.postId),
      many: [entry(fixture.postId)],
    });
    expect422(
      await client.post("/globals", {
        name: "Loose ref",
        handle: "loose_ref",
        fields: [{ handle: "pick", type: "entity" }],
        pick: "hello",
      }),
      "pick",
    );
    expect422(
      await client.post("/globals", {
        name: "Missing ref",
        handle: "missing_ref",
        fields: [{ handle: "pick", type: "entity" }],
        pick: "blog:nope",
      }),
      "pick",
    );
  });

  it("shows its blueprint among the account's blueprints", async () => {
    const created = await createGlobal({
      name: "Social",
      handle: "social",
      fields: [{ handle: "x", type: "text" }],
    });
    const byHandle = await client.get("/blueprints/global:social");
    expect(byHandle.status, byHandle.text).toBe(200);
    expect(byHandle.body).toMatchObject({
      id: created.blueprint.id,
      title: "Social",
      fields: created.blueprint.fields,
    });
    expect((await client.get(`/blueprints/${created.blueprint.id}`)).body.handle).toBe("global:social");
  });
});

describe("field handles", () => {
  /** An entry's own keys: a global has none of them, so its fields may take every one. */
  const entryKeys = ["title", "published", "published_at", "position", "content_path", "template_handle"];

  it("may be an entry's own keys (`title` of the `site` global): stored, answered and updated", async () => {
    const created = await client.post("/globals", {
      name: "Site",
      handle: "site",
      fields: entryKeys.map((handle) => ({ handle, type: "text" })),
      ...Object.fromEntries(entryKeys.map((handle) => [handle, `${handle} value`])),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe("Site");
    expect(created.body.blueprint.fields.map((f: { handle: string }) => f.handle)).toEqual(entryKeys);
    for (const handle of entryKeys) expect(created.body[handle]).toBe(`${handle} value`);
    expect((await client.get("/globals/site")).body).toEqual(created.body);

    const updated = await client.put("/globals/site", { title: "Acme", position: null });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: "Site", title: "Acme", published: "published value" });
    expect(updated.body).not.toHaveProperty("position");

    const graphql = await client.raw("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: 'query ($a: ID!) { global(account_id: $a, id: "site") { name values } }',
        variables: { a: client.account.account_id },
      }),
    });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.global.name).toBe("Site");
    expect(graphql.body.data.global.values).toMatchObject({
      title: "Acme",
      content_path: "content_path value",
    });
  });

  it("may not be the global's own keys (422 on that field's handle), on create and on update", async () => {
    const own = ["id", "handle", "name", "blueprint", "fields", "created_at", "updated_at"];
    for (const handle of own) {
      const created = await client.post("/globals", {
        name: "Own",
        handle: "own_keys",
        fields: [
          { handle: "ok", type: "text" },
          { handle, type: "text" },
        ],
      });
      expect(created.status, `${handle}: ${created.text}`).toBe(422);
      expect(created.body.details).toEqual([
        { path: "fields[1].handle", message: "is reserved for the global itself" },
      ]);
    }
    // Reported with the field's other problems.
    expect422(
      await client.post("/globals", {
        name: "Own",
        handle: "own_keys",
        fields: [{ handle: "name", type: "nope" }],
      }),
      "fields[0].handle",
      "fields[0].type",
    );
    expectError(await client.get("/globals/own_keys"), 404);
    await createGlobal({ name: "Own", handle: "own_keys" });
    for (const handle of own) {
      const updated = await client.put("/globals/own_keys", { fields: [{ handle, type: "text" }] });
      expect(updated.status, `${handle}: ${updated.text}`).toBe(422);
      expect(updated.body.details).toEqual([
        { path: "fields[0].handle", message: "is reserved for the global itself" },
      ]);
    }
    expect((await client.get("/globals/own_keys")).body.blueprint.fields).toEqual([]);
  });

  it("of a collection's blueprint still may not be an entry's own keys", async () => {
    const response = await client.post("/blueprints", {
      handle: "titled",
      title: "Titled",
      fields: [{ handle: "title", type: "text" }],
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body.details).toEqual([
      { path: "fields[0].handle", message: "is reserved for the entry itself" },
    ]);
  });
});

describe("owned blueprint", () => {
  it("cannot be attached to a collection (422, path blueprint_handles), by handle or ID", async () => {
    const global = await createGlobal({
      name: "Owned",
      handle: "owned",
      fields: [{ handle: "x", type: "text" }],
    });
    for (const [handle, reference] of [
      ["thief-a", "global:owned"],
      ["thief-b", global.blueprint.id],
    ]) {
      const refused = await client.post("/collections", {
        name: "Thief",
        handle,
        routing: `${handle}/:handle`,
        blueprint_handle: reference,
        blueprint: { fields: [] },
      });
      expect422(refused, "blueprint_handles");
      expectError(await client.get(`/collections/${handle}`), 404);
    }
    expect((await client.get("/globals/owned")).body.blueprint).toEqual(global.blueprint);
  });

  it("cannot be a form's blueprint (it belongs to no collection)", async () => {
    await createGlobal({ name: "Form target", handle: "form_target" });
    const form = await client.post("/forms", {
      title: "Sneaky",
      collection_handle: "blog",
      blueprint_handle: "global:form_target",
    });
    expect422(form, "blueprint_handle");
  });
});

describe("read and list", () => {
  it("reads one global by prefix ID and by handle; unknown ones are 404", async () => {
    const created = await createGlobal({ name: "Readable", handle: "readable" });
    expect((await client.get(`/globals/${created.id}`)).body).toEqual(created);
    expect((await client.get("/globals/readable")).body).toEqual(created);
    expectError(await client.get("/globals/stgbl_0000000000ghost"), 404);
    expectError(await client.get("/globals/ghost"), 404);
  });

  it("returns page 1 by default: 20 globals sorted by name, with the full envelope and values spread", async () => {
    const list = await paged.get("/globals");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
    expect(list.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(list.body.data.map((global: { name: string }) => global.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Global ${pad(i + 1)}`),
    );
    expect(list.body.data[0]).toEqual({
      id: expect.stringMatching(/^stgbl_/),
      handle: `g_${pad(PAGED_COUNT)}`,
      name: "Global 01",
      blueprint: {
        id: expect.stringMatching(/^blprt_/),
        handle: `global:g_${pad(PAGED_COUNT)}`,
        title: "Global 01",
        fields: [],
      },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const withValues = await client.get("/globals?handle=footer");
    expect(withValues.body.data[0]).toMatchObject({ copyright: "© Acme", year: 2024 });
    expect(withValues.body.data[0]).not.toHaveProperty("values");
  });

  it("pages: 20, then 5, then an empty page", async () => {
    const page2 = await paged.get("/globals?page=2");
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });
    expect(page2.body.data.map((global: { name: string }) => global.name)).toEqual(
      Array.from({ length: 5 }, (_, i) => `Global ${pad(i + 21)}`),
    );
    expect((await paged.get("/globals?page=3")).body.data).toEqual([]);
    expect422(await paged.get("/globals?page=0"), "page");
  });

  it("filters by exact handle", async () => {
    const one = await paged.get("/globals?handle=g_07");
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toMatchObject({ handle: "g_07", name: `Global ${pad(PAGED_COUNT + 1 - 7)}` });
    expect(one.body.pagination).toMatchObject({ total: 1, total_pages: 1, next_page: null, prev_page: null });
    expect((await paged.get("/globals?handle=g_0")).body.data).toEqual([]);
  });
});

describe("update", () => {
  const settings = () =>
    createGlobal({
      name: "Settings",
      handle: `s_${Math.random().toString(36).slice(2, 10)}`,
      fields: [
        { handle: "title_text", type: "text" },
        { handle: "tagline", type: "text" },
        { handle: "limit", type: "number" },
      ],
      title_text: "Acme",
      tagline: "We make things",
      limit: 10,
    });

  it("PUT merges the sent values into the stored ones; unknown keys are dropped", async () => {
    const created = await settings();
    const updated = await client.put(`/globals/${created.handle}`, { tagline: "Better things", bogus: 1 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...created,
      tagline: "Better things",
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await client.get(`/globals/${created.id}`)).body).toEqual(updated.body);
  });

  it("PATCH does the same, by ID; null clears one value", async () => {
    const created = await settings();
    const updated = await client.patch(`/globals/${created.id}`, { limit: 20, tagline: null });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ title_text: "Acme", limit: 20 });
    expect(updated.body).not.toHaveProperty("tagline");
    expect((await client.get(`/globals/${created.id}`)).body).not.toHaveProperty("tagline");
  });

  it("changes the name, which is also the blueprint's title", async () => {
    const created = await settings();
    const updated = await client.put(`/globals/${created.id}`, { name: "Site settings" });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      name: "Site settings",
      title_text: "Acme",
      tagline: "We make things",
    });
    expect(updated.body.blueprint).toEqual({ ...created.blueprint, title: "Site settings" });
  });

  it("merges fields by handle: adds, updates and removes, and a removed field's value goes with it", async () => {
    const created = await settings();
    const updated = await client.put(`/globals/${created.id}`, {
      fields: [
        { handle: "title_text", type: "text", display: "Site title" },
        { handle: "limit", type: "number" },
        { handle: "email", type: "text" },
      ],
      email: "hi@acme.test",
    });
    expect(updated.status, updated.text).toBe(200);
    // Positions are kept for known fields; a new one takes its index in the request.
    expect(updated.body.blueprint.fields).toEqual([
      { ...field("title_text", "text", 0), display: "Site title" },
      field("limit", "number", 2),
      field("email", "text", 2),
    ]);
    expect(updated.body).toMatchObject({ title_text: "Acme", limit: 10, email: "hi@acme.test" });
    expect(updated.body).not.toHaveProperty("tagline");
    // Re-adding the field does not bring the old value back.
    const readded = await client.put(`/globals/${created.id}`, {
      fields: [...updated.body.blueprint.fields, { handle: "tagline", type: "text" }],
    });
    expect(readded.status, readded.text).toBe(200);
    expect(readded.body).not.toHaveProperty("tagline");
  });

  it("drops a value whose field changes type, unless a new value is sent", async () => {
    const created = await settings();
    const updated = await client.put(`/globals/${created.id}`, {
      fields: [
        { handle: "title_text", type: "text" },
        { handle: "tagline", type: "number" },
        { handle: "limit", type: "text" },
      ],
      limit: "ten",
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ title_text: "Acme", limit: "ten" });
    expect(updated.body).not.toHaveProperty("tagline");
  });

  it("validates values against the fields as they will be (422 on the field) and changes nothing", async () => {
    const created = await settings();
    expect422(await client.put(`/globals/${created.id}`, { limit: "many" }), "limit");
    expect422(
      await client.put(`/globals/${created.id}`, {
        fields: [{ handle: "limit", type: "toggle" }],
        limit: 3,
      }),
      "limit",
    );
    expect422(
      await client.put(`/globals/${created.id}`, { fields: [{ handle: "id", type: "text" }] }),
      "fields[0].handle",
    );
    expect422(await client.put(`/globals/${created.id}`, { name: "" }), "name");
    expect((await client.get(`/globals/${created.id}`)).body).toEqual(created);
  });

  it("renames the handle: the new one resolves, the old one is 404, the blueprint follows", async () => {
    const created = await createGlobal({ name: "Old", handle: "old_name" });
    const renamed = await client.put("/globals/old_name", { handle: "new_name" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.id, handle: "new_name" });
    expect(renamed.body.blueprint).toMatchObject({ id: created.blueprint.id, handle: "global:new_name" });
    expect((await client.get("/globals/new_name")).body.id).toBe(created.id);
    expectError(await client.get("/globals/old_name"), 404);
    expect((await client.get("/blueprints/global:new_name")).status).toBe(200);
    expect((await client.get("/blueprints/global:old_name")).status).toBe(404);
    // The old handle is free again.
    await createGlobal({ name: "Old again", handle: "old_name" });
  });

  it("refuses a handle another global has, or one that is not snake_case (422, path handle)", async () => {
    await createGlobal({ name: "First", handle: "first_g" });
    await createGlobal({ name: "Second", handle: "second_g" });
    expect422(await client.put("/globals/second_g", { handle: "first_g", name: "Changed" }), "handle");
    expect422(await client.put("/globals/second_g", { handle: "Second-G" }), "handle");
    expect((await client.get("/globals/second_g")).body.name).toBe("Second");
    expect((await client.put("/globals/second_g", { handle: "second_g" })).status).toBe(200);
  });

  it("never loses values to concurrent PUTs of different fields", async () => {
    const count = 20;
    const fields = Array.from({ length: count }, (_, i) => ({ handle: `f${i}`, type: "number" }));
    const created = await createGlobal({ name: "Busy", handle: "busy", fields });
    const responses = await Promise.all(
      Array.from({ length: count }, (_, i) => client.put(`/globals/${created.id}`, { [`f${i}`]: i })),
    );
    for (const response of responses) expect(response.status, response.text).toBe(200);
    const read = await client.get("/globals/busy");
    for (let i = 0; i < count; i++) expect(read.body[`f${i}`]).toBe(i);
  });

  it("404s PUT, PATCH and DELETE on an unknown global", async () => {
    expectError(await client.put("/globals/ghost", { name: "x" }), 404);
    expectError(await client.patch("/globals/stgbl_0000000000ghost", { name: "x" }), 404);
    expectError(await client.delete("/globals/ghost"), 404);
  });
});

describe("delete", () => {
  it("answers 204 with an empty body and removes the global and its blueprint", async () => {
    const created = await createGlobal({
      name: "Trash",
      handle: "trash",
      fields: [{ handle: "x", type: "text" }],
    });
    const deleted = await client.delete(`/globals/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get(`/globals/${created.id}`), 404);
    expectError(await client.get("/globals/trash"), 404);
    expect((await client.get(`/blueprints/${created.blueprint.id}`)).status).toBe(404);
    expect((await client.get("/blueprints/global:trash")).status).toBe(404);
    expectError(await client.delete("/globals/trash"), 404);
    const again = await createGlobal({ name: "Trash", handle: "trash" });
    expect(again.id).not.toBe(created.id);
  });

  it("deletes by handle", async () => {
    await createGlobal({ name: "By handle", handle: "by_handle" });
    const deleted = await client.delete("/globals/by_handle");
    expect(deleted.status).toBe(204);
    expectError(await client.get("/globals/by_handle"), 404);
  });
});

describe("accounts", () => {
  it("answers 403 to another account's token on every global route, and changes nothing", async () => {
    const created = await createGlobal({
      name: "Guarded",
      handle: "guarded",
      fields: [{ handle: "secret", type: "text" }],
      secret: "SECRET_VALUE",
    });
    const attempts: Array<[string, () => Promise<ApiResponse>]> = [
      ["GET /globals", () => otherOnMain.get("/globals")],
      ["GET /globals?handle", () => otherOnMain.get("/globals?handle=guarded")],
      ["GET /globals/:id", () => otherOnMain.get(`/globals/${created.id}`)],
      ["GET /globals/:handle", () => otherOnMain.get("/globals/guarded")],
      ["POST /globals", () => otherOnMain.post("/globals", { name: "Intruder", handle: "intruder" })],
      ["POST /globals {}", () => otherOnMain.post("/globals", {})],
      ["PUT /globals/:id", () => otherOnMain.put(`/globals/${created.id}`, { secret: "hijacked" })],
      ["PATCH /globals/:handle", () => otherOnMain.patch("/globals/guarded", { name: "Hijacked" })],
      ["DELETE /globals/:id", () => otherOnMain.delete(`/globals/${created.id}`)],
      ["GET unknown global", () => otherOnMain.get("/globals/ghost")],
    ];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, `${label}: ${response.text}`).toBe(403);
      expectError(response, 403);
      expect(response.text).not.toContain("SECRET_VALUE");
    }
    expect((await client.get("/globals/guarded")).body).toEqual(created);
    expectError(await client.get("/globals/intruder"), 404);
  });

  it("answers 404 to this account's globals on another account's own path", async () => {
    const created = await createGlobal({ name: "Private", handle: "private_g" });
    expectError(await other.get(`/globals/${created.id}`), 404);
    expectError(await other.get("/globals/private_g"), 404);
    expectError(await other.put(`/globals/${created.id}`, { name: "x" }), 404);
    expectError(await other.delete("/globals/private_g"), 404);
    expect((await other.get("/globals?handle=private_g")).body.data).toEqual([]);
    expect((await other.get("/globals")).body.data).toEqual([]);
    // The same handle is free in another account.
    const theirs = await other.post("/globals", { name: "Theirs", handle: "private_g" });
    expect(theirs.status, theirs.text).toBe(201);
    expect((await client.get("/globals/private_g")).body).toEqual(created);
  });

  it("keeps entity references to the account", async () => {
    const foreign = await other.post("/globals", {
      name: "Foreign ref",
      handle: "foreign_ref",
      fields: [{ handle: "pick", type: "entity" }],
      pick: fixture.postId,
    });
    expect422(foreign, "pick");
  });

  it("lets a read-scoped token read globals but not write them (403)", async () => {
    const created = await createGlobal({ name: "Read only", handle: "read_only" });
    expect((await reader.get("/globals/read_only")).body).toEqual(created);
    expect((await reader.get("/globals?handle=read_only")).body.data).toEqual([created]);
    expectError(await reader.post("/globals", { name: "By reader", handle: "by_reader" }), 403);
    expectError(await reader.put("/globals/read_only", { name: "x" }), 403);
    expectError(await reader.delete("/globals/read_only"), 403);
    expect((await client.get("/globals/read_only")).body).toEqual(created);
  });
});
