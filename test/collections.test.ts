// Collections over REST (content-api.md "Collection", "Endpoints > Collections", "Errors", "Limits";
// decisions.md "REST decisions"). Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { blueprintShape, expect422, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own handles. */
let client: Api;
/** Only the 45 collections of the pagination tests. */
let paged: Api;

const PAGED_COUNT = 45;
const pad = (n: number) => String(n).padStart(2, "0");

/** Every response field of a collection, with the defaults of a collection created from required fields. */
function defaults(name: string, handle: string, routing: string) {
  return {
    id: expect.stringMatching(/^clctn_/),
    handle,
    name,
    routing,
    root_routing: false,
    orderable: "no",
    schema_type: null,
    template_handle: null,
    layout_handle: null,
    index_template_handle: null,
    index_routing: null,
    index_per_page: 10,
    feed_enabled: false,
    feed_path: null,
    feed_title: null,
    feed_description: null,
    feed_limit: 20,
    blueprint_handles: [],
    entries_count: 0,
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
    blueprints: [],
  };
}

/** Creates a collection that has an inline blueprint (so entries can be created in it). */
async function collectionWithBlueprint(handle: string, routing: string, extra: Record<string, unknown> = {}) {
  return expectCreated(
    client.post("/collections", {
      name: handle,
      handle,
      routing,
      blueprint: { fields: [{ handle: "body", type: "text" }] },
      ...extra,
    }),
  );
}

beforeAll(async () => {
  server = await startServer();
  const [main, second] = await Promise.all([createAccount(server, "Main"), createAccount(server, "Paged")]);
  client = api(server, main);
  paged = api(server, second);
  // Names sort differently from handles and from creation order: name `Item NN` gets handle `h-(46-NN)`,
  // and they are created in a shuffled order.
  const order = Array.from({ length: PAGED_COUNT }, (_, i) => ((i * 17) % PAGED_COUNT) + 1);
  expect(new Set(order).size).toBe(PAGED_COUNT);
  for (let i = 0; i < order.length; i += 5) {
    const batch = order.slice(i, i + 5).map((n) =>
      paged.post("/collections", {
        name: `Item ${pad(n)}`,
        handle: `h-${pad(PAGED_COUNT + 1 - n)}`,
        routing: `c${n}/:handle`,
      }),
    );
    for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.stop());

describe("create and read", () => {
  it("creates from the required fields, answers 201 and returns every response field with its default", async () => {
    const created = await client.post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(defaults("Blog", "blog", "blog/:handle"));
    expect(Date.parse(created.body.created_at)).not.toBeNaN();
    expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it("stores every writable field and accepts hyphenated handles", async () => {
    const sent = {
      name: "News Items",
      handle: "news-items",
      routing: ":year/:month/:handle",
      root_routing: false,
      orderable: "descending",
      schema_type: "BlogPosting",
      index_routing: "news",
      index_per_page: 5,
    };
    const created = await client.post("/collections", sent);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ...defaults("News Items", "news-items", ":year/:month/:handle"),
      ...sent,
    });
    const read = await client.get(`/collections/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("accepts each orderable value", async () => {
    for (const orderable of ["no", "ascending", "descending"]) {
      const created = await client.post("/collections", {
        name: `Ord ${orderable}`,
        handle: `ord-${orderable}`,
        routing: "o/:handle",
        orderable,
      });
      expect(created.status).toBe(201);
      expect(created.body.orderable).toBe(orderable);
    }
  });

  it("ignores read-only fields (feed_*, blueprint_handles, entries_count) on create, PUT and PATCH", async () => {
    const readOnly = {
      feed_enabled: true,
      feed_path: "/feed.xml",
      feed_title: "Feed",
      feed_description: "All posts",
      feed_limit: 5,
      blueprint_handles: ["something"],
      entries_count: 99,
    };
    const created = await client.post("/collections", {
      name: "Feedless",
      handle: "feedless",
      routing: "f/:handle",
      ...readOnly,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(defaults("Feedless", "feedless", "f/:handle"));
    const put = await client.put("/collections/feedless", { name: "Feedless 2", ...readOnly });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...defaults("Feedless 2", "feedless", "f/:handle"), id: created.body.id });
    const patch = await client.patch("/collections/feedless", readOnly);
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual({ ...defaults("Feedless 2", "feedless", "f/:handle"), id: created.body.id });
    const read = await client.get("/collections/feedless");
    expect(read.body).toEqual({ ...defaults("Feedless 2", "feedless", "f/:handle"), id: created.body.id });
  });

  it.each(["../:handle", "./:handle", "blog/../:handle", "blog/./:handle/"])(
    "refuses routing %s, whose dot segments a browser resolves away (422, path routing)",
    async (routing) => {
      const response = await client.post("/collections", { name: "Dots", handle: "dots", routing });
      expect422(response, "routing");
      expect(response.body.details[0].message).toBe("must not contain . or ..");
    },
  );

  it("refuses an index_routing with a dot segment, and takes dots inside a segment", async () => {
    const dotted = { name: "Dots", handle: "dots", routing: "v1.0/:handle" };
    expect422(await client.post("/collections", { ...dotted, index_routing: "news/.." }), "index_routing");
    const created = await expectCreated(client.post("/collections", { ...dotted, index_routing: "..news" }));
    expect([created.routing, created.index_routing]).toEqual(["v1.0/:handle", "..news"]);
  });

  it("reads one collection by prefix ID and by handle", async () => {
    const created = await client.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: "p/:handle",
    });
    const byId = await client.get(`/collections/${created.body.id}`);
    const byHandle = await client.get("/collections/pages");
    expect(byId.status).toBe(200);
    expect(byHandle.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    expect(byHandle.body).toEqual(created.body);
  });

  it("answers 404 with the error body for an unknown ID or handle", async () => {
    expectError(await client.get("/collections/clctn_doesnotexist"), 404);
    expectError(await client.get("/collections/no-such-collection"), 404);
  });

  it("keeps collections to their account", async () => {
    await client.post("/collections", { name: "Private", handle: "private-one", routing: "x/:handle" });
    expectError(await paged.get("/collections/private-one"), 404);
    const list = await paged.get("/collections?handle=private-one");
    expect(list.body.data).toEqual([]);
  });
});

describe("list", () => {
  it("returns page 1 by default: 20 collections sorted by name, with the full envelope", async () => {
    const list = await paged.get("/collections");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
    expect(list.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 3,
      next_page: 2,
      prev_page: null,
    });
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Item ${pad(i + 1)}`),
    );
    expect(list.body.data[0]).toEqual({ ...defaults("Item 01", `h-${pad(PAGED_COUNT)}`, "c1/:handle") });
  });

  it("pages through 45 collections: 20, 20, 5, then an empty page", async () => {
    const page1 = await paged.get("/collections?page=1");
    const page2 = await paged.get("/collections?page=2");
    const page3 = await paged.get("/collections?page=3");
    const page4 = await paged.get("/collections?page=4");
    expect(page1.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: 2,
      prev_page: null,
    });
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: 3,
      prev_page: 1,
    });
    expect(page3.body.pagination).toEqual({
      page: 3,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: null,
      prev_page: 2,
    });
    expect(page1.body.data).toHaveLength(20);
    expect(page2.body.data).toHaveLength(20);
    expect(page3.body.data).toHaveLength(5);
    const names = [...page1.body.data, ...page2.body.data, ...page3.body.data].map(
      (c: { name: string }) => c.name,
    );
    expect(names).toEqual(Array.from({ length: 45 }, (_, i) => `Item ${pad(i + 1)}`));
    expect(page4.status).toBe(200);
    expect(page4.body.data).toEqual([]);
    expect(page4.body.pagination).toMatchObject({
      page: 4,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: null,
    });
  });

  it("keeps the page size fixed at 20 whatever per_page asks", async () => {
    const list = await paged.get("/collections?per_page=50");
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(20);
    expect(list.body.pagination).toMatchObject({ page: 1, per_page: 20, total_pages: 3 });
  });

  it.each(["0", "-1", "abc"])("refuses page=%s (422, path page)", async (page) => {
    expect422(await paged.get(`/collections?page=${page}`), "page");
  });

  it("filters by exact handle", async () => {
    const one = await paged.get(`/collections?handle=h-07`);
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toMatchObject({ handle: "h-07", name: `Item ${pad(PAGED_COUNT + 1 - 7)}` });
    expect(one.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const prefixOnly = await paged.get("/collections?handle=h-0");
    expect(prefixOnly.body.data).toEqual([]);
    expect(prefixOnly.body.pagination).toMatchObject({ total: 0, next_page: null, prev_page: null });
  });
});

describe("create by handle (idempotent POST)", () => {
  it("updates the existing collection with 200 and the same ID; a new handle creates with 201", async () => {
    const first = await client.post("/collections", {
      name: "Events",
      handle: "events",
      routing: "events/:handle",
      index_per_page: 3,
    });
    expect(first.status).toBe(201);
    const again = await client.post("/collections", {
      name: "Events (new)",
      handle: "events",
      routing: "happenings/:handle",
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      ...first.body,
      name: "Events (new)",
      routing: "happenings/:handle",
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(again.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.body.updated_at));
    const list = await client.get("/collections?handle=events");
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data[0].id).toBe(first.body.id);
  });

  it("ends concurrent POSTs of one new handle as one collection: one 201, the others 200 with the same ID", async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.post("/collections", { name: `Race ${i}`, handle: "race", routing: "race/:handle" }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    const list = await client.get("/collections?handle=race");
    expect(list.body.pagination.total).toBe(1);
  });

  it("does not attach or create a blueprint when the POST updates an existing handle", async () => {
    const first = await client.post("/collections", {
      name: "Talks",
      handle: "talks",
      routing: "talks/:handle",
    });
    expect(first.status).toBe(201);
    await client.post("/blueprints", { title: "Talk spare", handle: "talk-spare" });
    const again = await client.post("/collections", {
      name: "Talks",
      handle: "talks",
      routing: "talks/:handle",
      blueprint_handle: "talk-spare",
      blueprint: { handle: "talk-inline" },
    });
    expect(again.status).toBe(200);
    expect(again.body.blueprint_handles).toEqual([]);
    expect(again.body.blueprints).toEqual([]);
    expect((await client.get("/blueprints/talk-inline")).status).toBe(404);
  });
});

describe("update", () => {
  it("PUT changes only the sent fields", async () => {
    const created = await client.post("/collections", {
      name: "Docs",
      handle: "docs",
      routing: "docs/:handle",
      orderable: "ascending",
      schema_type: "TechArticle",
      index_routing: "docs",
      index_per_page: 12,
    });
    const put = await client.put("/collections/docs", { name: "Documentation" });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      ...created.body,
      name: "Documentation",
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(put.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
    expect((await client.get("/collections/docs")).body).toEqual(put.body);
    const empty = await client.put("/collections/docs", {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ ...put.body, updated_at: expect.stringMatching(ISO) });
  });

  it("PATCH changes only the sent fields, and addresses the collection by ID too", async () => {
    const created = await client.post("/collections", {
      name: "Guides",
      handle: "guides",
      routing: "guides/:handle",
      schema_type: "Article",
    });
    const patch = await client.patch(`/collections/${created.body.id}`, {
      orderable: "descending",
      index_per_page: 7,
      index_routing: "all-guides",
    });
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual({
      ...created.body,
      orderable: "descending",
      index_per_page: 7,
      index_routing: "all-guides",
      updated_at: expect.stringMatching(ISO),
    });
    expect((await client.get("/collections/guides")).body).toEqual(patch.body);
  });

  it("clears an optional setting sent as null", async () => {
    await client.post("/collections", {
      name: "Typed",
      handle: "typed",
      routing: "t/:handle",
      schema_type: "Recipe",
    });
    const cleared = await client.patch("/collections/typed", { schema_type: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.schema_type).toBeNull();
    expect(cleared.body.name).toBe("Typed");
  });

  it("renames the handle: the new handle resolves, the old one is 404", async () => {
    const created = await client.post("/collections", {
      name: "Old",
      handle: "old-handle",
      routing: "old/:handle",
    });
    const renamed = await client.put("/collections/old-handle", { handle: "new-handle" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, handle: "new-handle", name: "Old" });
    expect((await client.get("/collections/new-handle")).body.id).toBe(created.body.id);
    expectError(await client.get("/collections/old-handle"), 404);
  });

  it("refuses a handle already used by another collection of the account (422, path handle)", async () => {
    await client.post("/collections", { name: "Taken A", handle: "taken-a", routing: "a/:handle" });
    await client.post("/collections", { name: "Taken B", handle: "taken-b", routing: "b/:handle" });
    expect422(await client.put("/collections/taken-b", { handle: "taken-a" }), "handle");
    expect((await client.get("/collections/taken-b")).body.handle).toBe("taken-b");
  });

  it("ignores blueprint_handle and blueprint on PUT and PATCH", async () => {
    const created = await client.post("/collections", {
      name: "Plain",
      handle: "plain",
      routing: "plain/:handle",
    });
    const spare = await client.post("/blueprints", { title: "Plain spare", handle: "plain-spare" });
    expect(spare.status).toBeLessThan(300);
    const put = await client.put("/collections/plain", {
      name: "Plain 2",
      blueprint_handle: "plain-spare",
      blueprint: { title: "Inline", handle: "plain-inline", fields: [] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...created.body, name: "Plain 2", updated_at: expect.stringMatching(ISO) });
    const patch = await client.patch("/collections/plain", {
      blueprint_handle: "plain-spare",
      blueprint: { handle: "plain-inline" },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.blueprint_handles).toEqual([]);
    expect(patch.body.blueprints).toEqual([]);
    expect((await client.get("/blueprints/plain-inline")).status).toBe(404);
    // The spare blueprint stayed free: another collection can still attach it.
    const other = await client.post("/collections", {
      name: "Plain other",
      handle: "plain-other",
      routing: "po/:handle",
      blueprint_handle: "plain-spare",
    });
    expect(other.status).toBe(201);
    expect(other.body.blueprint_handles).toEqual(["plain-spare"]);
  });

  it("404s PUT, PATCH and DELETE on an unknown collection", async () => {
    expectError(await client.put("/collections/ghost", { name: "x" }), 404);
    expectError(await client.patch("/collections/clctn_ghost", { name: "x" }), 404);
    expectError(await client.delete("/collections/ghost"), 404);
  });
});

describe("delete", () => {
  it("answers 204 with an empty body, deletes the entries, then the collection is 404", async () => {
    const collection = await collectionWithBlueprint("trash", "trash/:handle");
    const entry = await client.post("/collections/trash/entries", {
      handle: "doomed",
      title: "Doomed",
      body: "bye",
    });
    expect(entry.status, entry.text).toBe(201);
    expect((await client.get("/collections/trash")).body.entries_count).toBe(1);

    const deleted = await client.delete(`/collections/${collection.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");

    expectError(await client.get(`/collections/${collection.id}`), 404);
    expectError(await client.get("/collections/trash"), 404);
    expectError(await client.get(`/collections/${collection.id}/entries/${entry.body.id}`), 404);
    expectError(await client.get(`/collections/${collection.id}/entries`), 404);
    expect((await client.get("/collections?handle=trash")).body.data).toEqual([]);

    // A new collection with the same handle starts empty: the entry did not survive.
    const again = await client.post("/collections", {
      name: "Trash again",
      handle: "trash",
      routing: "trash/:handle",
    });
    expect(again.status).toBe(201);
    expect(again.body.entries_count).toBe(0);
    expect((await client.get("/collections/trash/entries")).body.data).toEqual([]);
    expectError(await client.get(`/collections/trash/entries/${entry.body.id}`), 404);
    // The blueprint stays; no entry uses it any more, so it can be deleted (it would be 409 otherwise).
    expect((await client.get("/blueprints/trash")).status).toBe(200);
    expect((await client.delete("/blueprints/trash")).status).toBe(204);
  });

  it("deletes by handle; a second delete is 404", async () => {
    await client.post("/collections", { name: "Once", handle: "once", routing: "once/:handle" });
    const deleted = await client.delete("/collections/once");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.delete("/collections/once"), 404);
  });
});

describe("blueprints on create", () => {
  it("creates an inline blueprint whose title and handle default to the collection's", async () => {
    const created = await client.post("/collections", {
      name: "Recipes",
      handle: "recipes",
      routing: "recipes/:handle",
      blueprint: {
        fields: [
          { handle: "ingredients", type: "list" },
          { handle: "summary", display: "Short summary", type: "text" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const fields = [
      { handle: "ingredients", display: "Ingredients", type: "list", position: 0, options: {} },
      { handle: "summary", display: "Short summary", type: "text", position: 1, options: {} },
    ];
    expect(created.body.blueprint_handles).toEqual(["recipes"]);
    expect(created.body.blueprints).toEqual([blueprintShape("recipes", "Recipes", fields)]);
    const blueprint = await client.get("/blueprints/recipes");
    expect(blueprint.status).toBe(200);
    expect(blueprint.body).toEqual(created.body.blueprints[0]);
  });

  it("uses the inline blueprint's own title and handle when sent", async () => {
    const created = await client.post("/collections", {
      name: "Cards",
      handle: "cards",
      routing: "cards/:handle",
      blueprint: {
        title: "Recipe Card",
        handle: "recipe-card",
        fields: [{ handle: "front", type: "BlueprintFieldRichText" }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.blueprint_handles).toEqual(["recipe-card"]);
    expect(created.body.blueprints).toEqual([
      blueprintShape("recipe-card", "Recipe Card", [
        { handle: "front", display: "Front", type: "rich_text", position: 0, options: {} },
      ]),
    ]);
  });

  it("attaches an existing blueprint that has no owner through blueprint_handle", async () => {
    const blueprint = await client.post("/blueprints", {
      title: "Article",
      handle: "article-bp",
      fields: [{ handle: "lead", type: "text" }],
    });
    expect(blueprint.status).toBeLessThan(300);
    const created = await client.post("/collections", {
      name: "Articles",
      handle: "articles",
      routing: "articles/:handle",
      blueprint_handle: "article-bp",
    });
    expect(created.status).toBe(201);
    expect(created.body.blueprint_handles).toEqual(["article-bp"]);
    expect(created.body.blueprints).toHaveLength(1);
    expect(created.body.blueprints[0]).toMatchObject({
      id: blueprint.body.id,
      handle: "article-bp",
      title: "Article",
    });
    expect(created.body.blueprints[0].fields).toEqual([
      { handle: "lead", display: "Lead", type: "text", position: 0, options: {} },
    ]);
    // Entries of the collection use it.
    const entry = await client.post("/collections/articles/entries", {
      handle: "first",
      title: "First",
      lead: "Hi",
    });
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body).toMatchObject({ blueprint_handle: "article-bp", lead: "Hi" });
  });

  it("attaches a blueprint named by its prefix ID", async () => {
    const blueprint = await client.post("/blueprints", { title: "By id", handle: "by-id-bp" });
    const created = await client.post("/collections", {
      name: "By id",
      handle: "by-id",
      routing: "byid/:handle",
      blueprint_handle: blueprint.body.id,
    });
    expect(created.status).toBe(201);
    expect(created.body.blueprint_handles).toEqual(["by-id-bp"]);
  });

  it("lets blueprint_handle win when blueprint is sent too", async () => {
    await client.post("/blueprints", { title: "Winner", handle: "winner-bp" });
    const created = await client.post("/collections", {
      name: "Contest",
      handle: "contest",
      routing: "contest/:handle",
      blueprint_handle: "winner-bp",
      blueprint: { title: "Loser", handle: "loser-bp", fields: [{ handle: "x", type: "text" }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.blueprint_handles).toEqual(["winner-bp"]);
    expect(created.body.blueprints.map((b: { handle: string }) => b.handle)).toEqual(["winner-bp"]);
    expect((await client.get("/blueprints/loser-bp")).status).toBe(404);
  });

  it("silently skips an unknown blueprint_handle and then uses the inline blueprint", async () => {
    const created = await client.post("/collections", {
      name: "Fallback",
      handle: "fallback",
      routing: "fallback/:handle",
      blueprint_handle: "does-not-exist",
      blueprint: { handle: "fallback-inline", fields: [{ handle: "note", type: "text" }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.blueprint_handles).toEqual(["fallback-inline"]);
    expect(created.body.blueprints).toEqual([
      blueprintShape("fallback-inline", "Fallback", [
        { handle: "note", display: "Note", type: "text", position: 0, options: {} },
      ]),
    ]);
    expect((await client.get("/blueprints/does-not-exist")).status).toBe(404);
  });

  it("silently skips an unknown blueprint_handle and creates no blueprint when none is inline", async () => {
    const created = await client.post("/collections", {
      name: "Bare",
      handle: "bare",
      routing: "bare/:handle",
      blueprint_handle: "nope-bp",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(defaults("Bare", "bare", "bare/:handle"));
    expect((await client.get("/blueprints/nope-bp")).status).toBe(404);
    expect((await client.get("/blueprints/bare")).status).toBe(404);
  });

  it("refuses a blueprint that already belongs to another collection (422, path blueprint_handles)", async () => {
    await collectionWithBlueprint("owner", "owner/:handle");
    const refused = await client.post("/collections", {
      name: "Thief",
      handle: "thief",
      routing: "thief/:handle",
      blueprint_handle: "owner",
    });
    expect422(refused, "blueprint_handles");
    expectError(await client.get("/collections/thief"), 404);
    expect((await client.get("/collections/owner")).body.blueprint_handles).toEqual(["owner"]);
  });

  it("refuses an inline blueprint whose handle is a blueprint of another collection (422, path blueprint_handles)", async () => {
    await collectionWithBlueprint("owner-two", "owner2/:handle");
    const refused = await client.post("/collections", {
      name: "Copycat",
      handle: "copycat",
      routing: "copycat/:handle",
      blueprint: { handle: "owner-two" },
    });
    expect422(refused, "blueprint_handles");
    expectError(await client.get("/collections/copycat"), 404);
  });

  it("validates inline blueprint fields like blueprint fields (422 naming the field) and creates nothing", async () => {
    const badType = await client.post("/collections", {
      name: "Inline bad",
      handle: "inline-bad",
      routing: "ib/:handle",
      blueprint: {
        fields: [
          { handle: "a", type: "text" },
          { handle: "b", type: "nonsense" },
        ],
      },
    });
    expect422(badType, "blueprint.fields[1].type");
    const twice = await client.post("/collections", {
      name: "Inline bad",
      handle: "inline-bad",
      routing: "ib/:handle",
      blueprint: {
        fields: [
          { handle: "a", type: "text" },
          { handle: "a", type: "list" },
        ],
      },
    });
    expect422(twice, "blueprint.fields[1].handle");
    expectError(await client.get("/collections/inline-bad"), 404);
    expect((await client.get("/blueprints/inline-bad")).status).toBe(404);
  });

  it("refuses an inline blueprint whose handle is taken by an unowned blueprint (422, path blueprint.handle)", async () => {
    // Not in the specification: the implementation asks to attach it with blueprint_handle instead.
    await client.post("/blueprints", { title: "Loose", handle: "loose" });
    const refused = await client.post("/collections", {
      name: "Loose",
      handle: "loose",
      routing: "loose/:handle",
      blueprint: { fields: [] },
    });
    expect422(refused, "blueprint.handle");
    expectError(await client.get("/collections/loose"), 404);
  });

  it("treats a blueprint of another account as unknown (skipped, not attached)", async () => {
    const foreign = await paged.post("/blueprints", { title: "Foreign", handle: "foreign-bp" });
    expect(foreign.status).toBe(201);
    for (const [handle, reference] of [
      ["foreign-a", "foreign-bp"],
      ["foreign-b", foreign.body.id],
    ]) {
      const created = await client.post("/collections", {
        name: handle,
        handle,
        routing: `${handle}/:handle`,
        blueprint_handle: reference,
      });
      expect(created.status).toBe(201);
      expect(created.body.blueprint_handles).toEqual([]);
    }
    // It stays free in its own account.
    const own = await paged.get("/blueprints/foreign-bp");
    expect(own.body).toEqual(foreign.body);
  });

  it("lets entries of a collection created with an inline blueprint use its fields", async () => {
    await collectionWithBlueprint("notes", "notes/:handle");
    const entry = await client.post("/collections/notes/entries", {
      handle: "n1",
      title: "N1",
      body: "text",
      stray: "dropped",
    });
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body).toMatchObject({
      handle: "n1",
      blueprint_handle: "notes",
      body: "text",
      content_path: "/notes/n1",
    });
    expect(entry.body).not.toHaveProperty("stray");
    expect((await client.get("/collections/notes")).body.entries_count).toBe(1);
    await client.post("/collections/notes/entries", { handle: "n2", title: "N2" });
    expect((await client.get("/collections/notes")).body.entries_count).toBe(2);
    expect((await client.delete("/collections/notes/entries/n1")).status).toBe(204);
    expect((await client.get("/collections/notes")).body.entries_count).toBe(1);
    expect((await client.get("/collections?handle=notes")).body.data[0].entries_count).toBe(1);
  });
});

describe("template references", () => {
  it("refuses an unknown template_handle (422, path template_handle)", async () => {
    expect422(
      await client.post("/collections", {
        name: "T1",
        handle: "t1",
        routing: "t1/:handle",
        template_handle: "missing",
      }),
      "template_handle",
    );
    expectError(await client.get("/collections/t1"), 404);
  });

  it("refuses an unknown layout_handle (422, path layout_handle)", async () => {
    expect422(
      await client.post("/collections", {
        name: "T2",
        handle: "t2",
        routing: "t2/:handle",
        layout_handle: "missing",
      }),
      "layout_handle",
    );
    expectError(await client.get("/collections/t2"), 404);
  });

  it("refuses an unknown index_template_handle (422, path index_template_handle)", async () => {
    expect422(
      await client.post("/collections", {
        name: "T3",
        handle: "t3",
        routing: "t3/:handle",
        index_template_handle: "missing",
      }),
      "index_template_handle",
    );
    expectError(await client.get("/collections/t3"), 404);
  });

  it("reports all three unknown template handles together", async () => {
    expect422(
      await client.post("/collections", {
        name: "T4",
        handle: "t4",
        routing: "t4/:handle",
        template_handle: "a",
        layout_handle: "b",
        index_template_handle: "c",
      }),
      "template_handle",
      "layout_handle",
      "index_template_handle",
    );
  });

  it("accepts template handles that exist, on create and update, and clears them with null", async () => {
    // Templates (content-api.md "Templates"): POST /templates {template: {title, handle, html}}.
    for (const [handle, html] of [
      ["post", "<article>{{ title }}</article>"],
      ["theme", "<main>{{ content_for_layout }}</main>"],
      ["post-index", "{% for e in entries %}{{ e.title }}{% endfor %}"],
      ["alt", "<div>{{ title }}</div>"],
    ]) {
      const template = await client.post("/templates", { template: { title: handle, handle, html } });
      expect(template.status, template.text).toBe(201);
    }
    const created = await client.post("/collections", {
      name: "Templated",
      handle: "templated",
      routing: "templated/:handle",
      template_handle: "post",
      layout_handle: "theme",
      index_template_handle: "post-index",
      index_routing: "templated",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      ...defaults("Templated", "templated", "templated/:handle"),
      template_handle: "post",
      layout_handle: "theme",
      index_template_handle: "post-index",
      index_routing: "templated",
    });
    // One known and one unknown handle: only the unknown one is reported, nothing changes.
    expect422(
      await client.patch("/collections/templated", { template_handle: "alt", layout_handle: "missing" }),
      "layout_handle",
    );
    expect((await client.get("/collections/templated")).body).toEqual(created.body);
    const changed = await client.patch("/collections/templated", {
      template_handle: "alt",
      layout_handle: null,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      template_handle: "alt",
      layout_handle: null,
      index_template_handle: "post-index",
    });
  });

  it("refuses unknown template handles on PUT and PATCH and leaves the collection unchanged", async () => {
    const created = await client.post("/collections", { name: "T5", handle: "t5", routing: "t5/:handle" });
    expect422(
      await client.put("/collections/t5", { name: "T5 changed", template_handle: "missing" }),
      "template_handle",
    );
    expect422(await client.patch("/collections/t5", { layout_handle: "missing" }), "layout_handle");
    expect422(
      await client.patch("/collections/t5", { index_template_handle: "missing" }),
      "index_template_handle",
    );
    expect((await client.get("/collections/t5")).body).toEqual(created.body);
  });
});

describe("validation", () => {
  it.each([
    ["name", { handle: "v-name", routing: "v/:handle" }],
    ["handle", { name: "No handle", routing: "v/:handle" }],
    ["routing", { name: "No routing", handle: "v-routing" }],
  ])("a missing %s is a 422 on that field", async (path, body) => {
    expect422(await client.post("/collections", body), path);
  });

  it.each(["My Blog", "blog!", "Blog", "blog/posts", "-blog"])(
    "refuses the handle %j (422, path handle)",
    async (handle) => {
      expect422(
        await client.post("/collections", { name: "Bad handle", handle, routing: "bad/:handle" }),
        "handle",
      );
    },
  );

  it.each([
    ["name", { name: 5 }],
    ["name", { name: "" }],
    ["root_routing", { root_routing: "yes" }],
    ["index_per_page", { index_per_page: "ten" }],
    ["index_per_page", { index_per_page: 2.5 }],
  ])("refuses a wrongly typed or empty value (422, path %s)", async (path, value) => {
    expect422(
      await client.post("/collections", {
        name: "Typed wrong",
        handle: "typed-wrong",
        routing: "tw/:handle",
        ...value,
      }),
      path,
    );
    expectError(await client.get("/collections/typed-wrong"), 404);
  });

  it("refuses an empty name on PUT and keeps the stored one", async () => {
    await client.post("/collections", { name: "Named", handle: "named", routing: "named/:handle" });
    expect422(await client.put("/collections/named", { name: "" }), "name");
    expect((await client.get("/collections/named")).body.name).toBe("Named");
  });

  it("refuses an orderable value outside no/ascending/descending (422, path orderable)", async () => {
    expect422(
      await client.post("/collections", {
        name: "Ord",
        handle: "ord-bad",
        routing: "o/:handle",
        orderable: "sometimes",
      }),
      "orderable",
    );
    expectError(await client.get("/collections/ord-bad"), 404);
    await client.post("/collections", { name: "Ord ok", handle: "ord-ok", routing: "o/:handle" });
    expect422(await client.patch("/collections/ord-ok", { orderable: "random" }), "orderable");
    expect((await client.get("/collections/ord-ok")).body.orderable).toBe("no");
  });
});

describe("root routing", () => {
  it("requires routing ':handle' (422, path root_routing)", async () => {
    expect422(
      await client.post("/collections", {
        name: "Root bad",
        handle: "root-bad",
        routing: "blog/:handle",
        root_routing: true,
      }),
      "root_routing",
    );
    expectError(await client.get("/collections/root-bad"), 404);
  });

  it("allows one root collection; its entry `index` is served at / and the others at /<handle>", async () => {
    const root = await collectionWithBlueprint("site-pages", ":handle", { root_routing: true });
    expect(root.root_routing).toBe(true);
    const index = await client.post("/collections/site-pages/entries", { handle: "index", title: "Home" });
    expect(index.status, index.text).toBe(201);
    expect(index.body.content_path).toBe("/");
    const about = await client.post("/collections/site-pages/entries", { handle: "about", title: "About" });
    expect(about.body.content_path).toBe("/about");
  });

  it("refuses a second root_routing collection (422, path root_routing), on create and on update", async () => {
    expect422(
      await client.post("/collections", {
        name: "Root 2",
        handle: "root-two",
        routing: ":handle",
        root_routing: true,
      }),
      "root_routing",
    );
    expectError(await client.get("/collections/root-two"), 404);
    await client.post("/collections", { name: "Root 3", handle: "root-three", routing: ":handle" });
    expect422(await client.patch("/collections/root-three", { root_routing: true }), "root_routing");
    expect((await client.get("/collections/root-three")).body.root_routing).toBe(false);
  });

  it("refuses changing the root collection's routing away from ':handle'", async () => {
    expect422(await client.patch("/collections/site-pages", { routing: "pages/:handle" }), "root_routing");
    expect((await client.get("/collections/site-pages")).body.routing).toBe(":handle");
  });
});

describe("root routing, moved", () => {
  it("moving root_routing to another collection moves `/` with it", async () => {
    const unset = await client.patch("/collections/site-pages", { root_routing: false });
    expect(unset.status).toBe(200);
    expect(unset.body.root_routing).toBe(false);
    expect((await client.get("/collections/site-pages/entries/index")).body.content_path).toBe("/index");
    const moved = await client.patch("/collections/root-three", { root_routing: true });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.root_routing).toBe(true);
    expect422(await client.patch("/collections/site-pages", { root_routing: true }), "root_routing");
  });
});

describe("routing changes", () => {
  it("regenerates the content_path of existing entries", async () => {
    await collectionWithBlueprint("journal", "blog/:handle");
    const entry = await client.post("/collections/journal/entries", { handle: "hello", title: "Hello" });
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body.content_path).toBe("/blog/hello");

    const changed = await client.put("/collections/journal", { routing: "posts/:handle" });
    expect(changed.status).toBe(200);
    expect(changed.body.routing).toBe("posts/:handle");
    expect((await client.get("/collections/journal/entries/hello")).body.content_path).toBe("/posts/hello");
    expect((await client.get(`/collections/journal/entries/${entry.body.id}`)).body.content_path).toBe(
      "/posts/hello",
    );

    const patched = await client.patch("/collections/journal", { routing: "archive/:handle" });
    expect(patched.status).toBe(200);
    const list = await client.get("/collections/journal/entries");
    expect(list.body.data.map((e: { content_path: string }) => e.content_path)).toEqual(["/archive/hello"]);
  });
});

describe("error body", () => {
  it("is exactly {error, details[{path, message}]} for 422 and 404", async () => {
    const invalid = await client.post("/collections", {
      name: "Fine",
      handle: "Bad Handle",
      routing: "x/:handle",
    });
    const details = expectError(invalid, 422);
    expect(details.map((d) => d.path)).toEqual(["handle"]);
    expect(details[0]?.message.length).toBeGreaterThan(0);
    expect(invalid.headers.get("content-type")).toMatch(/application\/json/);
    const missing = await client.get("/collections/nothing-here");
    expectError(missing, 404);
  });
});
