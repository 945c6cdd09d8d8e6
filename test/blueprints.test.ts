// Blueprints over REST (content-api.md "Blueprint", "Endpoints > Blueprints", "Errors", "Limits";
// decisions.md "REST decisions"). Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { blueprintShape, expect422, expectError, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own handles. */
let client: Api;
/** Only the 30 blueprints of the pagination tests. */
let paged: Api;

const PAGED_COUNT = 30;
const pad = (n: number) => String(n).padStart(2, "0");

const API_TYPES = [
  "text",
  "rich_text",
  "image",
  "video",
  "gallery",
  "template",
  "entity",
  "collection",
  "toggle",
  "enumerate",
  "list",
  "dictionary",
] as const;
const INTERNAL: Record<(typeof API_TYPES)[number], string> = {
  text: "BlueprintFieldText",
  rich_text: "BlueprintFieldRichText",
  image: "BlueprintFieldImage",
  video: "BlueprintFieldVideo",
  gallery: "BlueprintFieldGallery",
  template: "BlueprintFieldTemplate",
  entity: "BlueprintFieldEntity",
  collection: "BlueprintFieldCollection",
  toggle: "BlueprintFieldToggle",
  enumerate: "BlueprintFieldEnumerate",
  list: "BlueprintFieldList",
  dictionary: "BlueprintFieldDictionary",
};

beforeAll(async () => {
  server = await startServer();
  const [main, second] = await Promise.all([createAccount(server, "Main"), createAccount(server, "Paged")]);
  client = api(server, main);
  paged = api(server, second);
  // Titles `Form NN` created in a shuffled order, handles unrelated to the title order.
  const order = Array.from({ length: PAGED_COUNT }, (_, i) => ((i * 7) % PAGED_COUNT) + 1);
  expect(new Set(order).size).toBe(PAGED_COUNT);
  for (let i = 0; i < order.length; i += 5) {
    const batch = order
      .slice(i, i + 5)
      .map((n) =>
        paged.post("/blueprints", { title: `Form ${pad(n)}`, handle: `b-${pad(PAGED_COUNT + 1 - n)}` }),
      );
    for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.stop());

describe("create", () => {
  it("generates the handle from the title and answers 201 with the full blueprint", async () => {
    const created = await client.post("/blueprints", { title: "Blog Post" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(blueprintShape("blog-post", "Blog Post"));
  });

  it("generates URL-friendly handles from titles with punctuation and accents", async () => {
    const created = await client.post("/blueprints", { title: "Contact us! Café" });
    expect(created.status).toBe(201);
    expect(created.body.handle).toBe("contact-us-cafe");
  });

  it("keeps an explicit handle", async () => {
    const created = await client.post("/blueprints", { title: "Landing Page", handle: "landing" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(blueprintShape("landing", "Landing Page"));
  });

  it("stores fields {handle, display, type, position, options} and fills display, position and options", async () => {
    const created = await client.post("/blueprints", {
      title: "Article",
      fields: [
        { handle: "hero_image", type: "image" },
        {
          handle: "body",
          display: "Body copy",
          type: "rich_text",
          position: 5,
          options: { toolbar: "full" },
        },
        { handle: "tags", type: "list" },
      ],
    });
    expect(created.status).toBe(201);
    // Returned in position order; display defaults to the humanized handle, position to the order sent,
    // options to {}.
    expect(created.body).toEqual(
      blueprintShape("article", "Article", [
        { handle: "hero_image", display: "Hero image", type: "image", position: 0, options: {} },
        { handle: "tags", display: "Tags", type: "list", position: 2, options: {} },
        {
          handle: "body",
          display: "Body copy",
          type: "rich_text",
          position: 5,
          options: { toolbar: "full" },
        },
      ]),
    );
  });

  it("accepts every API field type and returns it unchanged", async () => {
    const fields = [...API_TYPES, "raw_html", "number"].map((type, index) => ({
      handle: `f_${type}`,
      type,
      position: index,
    }));
    const created = await client.post("/blueprints", { title: "All types", fields });
    expect(created.status, created.text).toBe(201);
    expect(created.body.fields.map((f: { type: string }) => f.type)).toEqual([
      ...API_TYPES,
      "raw_html",
      "number",
    ]);
  });

  it("accepts the internal type names and returns the API names", async () => {
    const fields = API_TYPES.map((type, index) => ({
      handle: `f_${type}`,
      type: INTERNAL[type],
      position: index,
    }));
    const created = await client.post("/blueprints", { title: "Internal names", fields });
    expect(created.status, created.text).toBe(201);
    expect(created.body.fields).toEqual(
      API_TYPES.map((type, index) => ({
        handle: `f_${type}`,
        display: expect.any(String),
        type,
        position: index,
        options: {},
      })),
    );
    const read = await client.get("/blueprints/internal-names");
    expect(read.body.fields.map((f: { type: string }) => f.type)).toEqual([...API_TYPES]);
  });

  it("keeps field options such as enumerations, entity and number settings", async () => {
    const created = await client.post("/blueprints", {
      title: "Options",
      fields: [
        { handle: "color", type: "enumerate", options: { enumerations: ["red", "green"] } },
        { handle: "author", type: "entity", options: { collection: "people", multiple: true } },
        { handle: "price", type: "number", options: { number_type: "decimal", decimal_places: 2 } },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.fields.map((f: { options: unknown }) => f.options)).toEqual([
      { enumerations: ["red", "green"] },
      { collection: "people", multiple: true },
      { number_type: "decimal", decimal_places: 2 },
    ]);
  });

  it("refuses a handle already used (422, path handle), whether sent or generated", async () => {
    await client.post("/blueprints", { title: "Dup source", handle: "dup" });
    expect422(await client.post("/blueprints", { title: "Other", handle: "dup" }), "handle");
    await client.post("/blueprints", { title: "Same Title" });
    expect422(await client.post("/blueprints", { title: "Same Title" }), "handle");
    const list = await client.get("/blueprints?handle=dup");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].title).toBe("Dup source");
  });

  it("refuses an invalid field type (422, path fields[i].type)", async () => {
    expect422(
      await client.post("/blueprints", { title: "Bad type", fields: [{ handle: "a", type: "nope" }] }),
      "fields[0].type",
    );
    expect422(
      await client.post("/blueprints", {
        title: "Bad type 2",
        fields: [
          { handle: "a", type: "text" },
          { handle: "b", type: "BlueprintFieldNope" },
        ],
      }),
      "fields[1].type",
    );
    expect((await client.get("/blueprints/bad-type")).status).toBe(404);
    expect((await client.get("/blueprints/bad-type-2")).status).toBe(404);
  });

  it("refuses duplicate field handles (422, path fields[i].handle)", async () => {
    expect422(
      await client.post("/blueprints", {
        title: "Twice",
        fields: [
          { handle: "a", type: "text" },
          { handle: "a", type: "rich_text" },
        ],
      }),
      "fields[1].handle",
    );
    expect((await client.get("/blueprints/twice")).status).toBe(404);
  });

  it("requires a title (422, path title)", async () => {
    expect422(await client.post("/blueprints", { handle: "untitled" }), "title");
    expect((await client.get("/blueprints/untitled")).status).toBe(404);
  });

  it("refuses an invalid handle (422, path handle)", async () => {
    expect422(await client.post("/blueprints", { title: "Bad", handle: "Bad Handle" }), "handle");
  });
});

describe("read and list", () => {
  it("reads one blueprint by prefix ID and by handle", async () => {
    const created = await client.post("/blueprints", {
      title: "Product",
      fields: [{ handle: "sku", type: "text" }],
    });
    const byId = await client.get(`/blueprints/${created.body.id}`);
    const byHandle = await client.get("/blueprints/product");
    expect(byId.status).toBe(200);
    expect(byHandle.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    expect(byHandle.body).toEqual(created.body);
  });

  it("answers 404 with the error body for an unknown ID or handle", async () => {
    expectError(await client.get("/blueprints/blprt_nothing"), 404);
    expectError(await client.get("/blueprints/nothing"), 404);
  });

  it("lists with {data, pagination: {current_page, total_pages, total_count, per_page: 25}}", async () => {
    const list = await paged.get("/blueprints");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
    expect(list.body.pagination).toEqual({
      current_page: 1,
      total_pages: 2,
      total_count: PAGED_COUNT,
      per_page: 25,
    });
    expect(list.body.data).toHaveLength(25);
    expect(list.body.data[0]).toEqual(
      blueprintShape(expect.stringMatching(/^b-\d\d$/), expect.stringMatching(/^Form \d\d$/)),
    );
  });

  it("pages through 30 blueprints: 25, then 5, then an empty page", async () => {
    const page1 = await paged.get("/blueprints?page=1");
    const page2 = await paged.get("/blueprints?page=2");
    const page3 = await paged.get("/blueprints?page=3");
    expect(page1.body.data).toHaveLength(25);
    expect(page2.body.data).toHaveLength(5);
    expect(page2.body.pagination).toEqual({ current_page: 2, total_pages: 2, total_count: 30, per_page: 25 });
    const ids = new Set([...page1.body.data, ...page2.body.data].map((b: { id: string }) => b.id));
    expect(ids.size).toBe(30);
    expect(page3.status).toBe(200);
    expect(page3.body.data).toEqual([]);
    expect(page3.body.pagination).toEqual({ current_page: 3, total_pages: 2, total_count: 30, per_page: 25 });
  });

  it.each(["0", "abc"])("refuses page=%s (422, path page)", async (page) => {
    expect422(await paged.get(`/blueprints?page=${page}`), "page");
  });

  it("sorts the list by title", async () => {
    const page1 = await paged.get("/blueprints?page=1");
    const page2 = await paged.get("/blueprints?page=2");
    const titles = [...page1.body.data, ...page2.body.data].map((b: { title: string }) => b.title);
    expect(titles).toEqual(Array.from({ length: PAGED_COUNT }, (_, i) => `Form ${pad(i + 1)}`));
  });

  it("filters by exact handle", async () => {
    const one = await paged.get("/blueprints?handle=b-07");
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toEqual(blueprintShape("b-07", `Form ${pad(PAGED_COUNT + 1 - 7)}`));
    expect(one.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 1, per_page: 25 });
    const none = await paged.get("/blueprints?handle=b-0");
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination).toEqual({ current_page: 1, total_pages: 0, total_count: 0, per_page: 25 });
  });

  it("keeps blueprints to their account", async () => {
    expectError(await paged.get("/blueprints/blog-post"), 404);
    expect((await paged.get("/blueprints?handle=blog-post")).body.data).toEqual([]);
  });
});

describe("update", () => {
  it("PUT merges fields by handle: adds new, updates sent, removes missing, keeps unsent properties", async () => {
    const created = await client.post("/blueprints", {
      title: "Merge",
      fields: [
        { handle: "summary", display: "Summary", type: "text", options: { max: 200 } },
        { handle: "body", display: "Body", type: "rich_text", options: { toolbar: "basic" } },
        { handle: "photo", display: "Photo", type: "image" },
      ],
    });
    expect(created.status).toBe(201);
    const updated = await client.put("/blueprints/merge", {
      fields: [
        { handle: "summary", type: "text" },
        { handle: "body", type: "BlueprintFieldRawHtml", display: "Content" },
        { handle: "cover", type: "image", display: "Cover", options: { crop: true } },
      ],
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...created.body,
      updated_at: expect.stringMatching(ISO),
      fields: [
        { handle: "summary", display: "Summary", type: "text", position: 0, options: { max: 200 } },
        { handle: "body", display: "Content", type: "raw_html", position: 1, options: { toolbar: "basic" } },
        { handle: "cover", display: "Cover", type: "image", position: 2, options: { crop: true } },
      ],
    });
    expect((await client.get("/blueprints/merge")).body).toEqual(updated.body);
  });

  it("PUT updates position and options of an existing field when sent", async () => {
    await client.post("/blueprints", {
      title: "Reorder",
      fields: [
        { handle: "a", type: "text" },
        { handle: "b", type: "text", options: { x: 1 } },
      ],
    });
    const updated = await client.put("/blueprints/reorder", {
      fields: [
        { handle: "a", type: "text", position: 9 },
        { handle: "b", type: "text", options: { y: 2 } },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.fields).toEqual([
      { handle: "b", display: "B", type: "text", position: 1, options: { y: 2 } },
      { handle: "a", display: "A", type: "text", position: 9, options: {} },
    ]);
  });

  it("PUT without fields changes title and handle and keeps the fields", async () => {
    const created = await client.post("/blueprints", {
      title: "Keep",
      fields: [{ handle: "k", type: "toggle" }],
    });
    const updated = await client.put(`/blueprints/${created.body.id}`, { title: "Kept", handle: "kept" });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      ...created.body,
      title: "Kept",
      handle: "kept",
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
    expect((await client.get("/blueprints/kept")).body.id).toBe(created.body.id);
    expectError(await client.get("/blueprints/keep"), 404);
  });

  it("PUT with an empty fields array removes every field", async () => {
    await client.post("/blueprints", { title: "Empty me", fields: [{ handle: "x", type: "text" }] });
    const updated = await client.put("/blueprints/empty-me", { fields: [] });
    expect(updated.status).toBe(200);
    expect(updated.body.fields).toEqual([]);
  });

  it("PATCH is accepted with the same meaning as PUT", async () => {
    const created = await client.post("/blueprints", {
      title: "Patchable",
      fields: [{ handle: "one", type: "text" }],
    });
    const patched = await client.patch("/blueprints/patchable", {
      title: "Patched",
      fields: [
        { handle: "one", type: "text" },
        { handle: "two", type: "list" },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...created.body,
      title: "Patched",
      updated_at: expect.stringMatching(ISO),
      fields: [
        { handle: "one", display: "One", type: "text", position: 0, options: {} },
        { handle: "two", display: "Two", type: "list", position: 1, options: {} },
      ],
    });
  });

  it("PUT refuses an invalid field type, a duplicate field handle and a taken handle, leaving the blueprint unchanged", async () => {
    const created = await client.post("/blueprints", {
      title: "Guarded",
      fields: [{ handle: "g", type: "text" }],
    });
    await client.post("/blueprints", { title: "Occupied" });
    expect422(
      await client.put("/blueprints/guarded", { fields: [{ handle: "g", type: "bogus" }] }),
      "fields[0].type",
    );
    expect422(
      await client.put("/blueprints/guarded", {
        fields: [
          { handle: "g", type: "text" },
          { handle: "g", type: "text" },
        ],
      }),
      "fields[1].handle",
    );
    expect422(await client.put("/blueprints/guarded", { handle: "occupied" }), "handle");
    expect((await client.get("/blueprints/guarded")).body).toEqual(created.body);
  });

  it("404s PUT, PATCH and DELETE on an unknown blueprint", async () => {
    expectError(await client.put("/blueprints/ghost", { title: "x" }), 404);
    expectError(await client.patch("/blueprints/blprt_ghost", { title: "x" }), 404);
    expectError(await client.delete("/blueprints/ghost"), 404);
  });
});

describe("blueprints of collections", () => {
  it("shows blueprint changes in the owning collection's blueprint_handles and blueprints", async () => {
    await client.post("/blueprints", {
      title: "Owned",
      handle: "owned",
      fields: [{ handle: "a", type: "text" }],
    });
    const collection = await client.post("/collections", {
      name: "Owner",
      handle: "owner",
      routing: "owner/:handle",
      blueprint_handle: "owned",
    });
    expect(collection.status).toBe(201);
    expect(collection.body.blueprint_handles).toEqual(["owned"]);
    const updated = await client.put("/blueprints/owned", {
      handle: "owned-renamed",
      fields: [{ handle: "b", type: "toggle" }],
    });
    expect(updated.status).toBe(200);
    const read = await client.get("/collections/owner");
    expect(read.body.blueprint_handles).toEqual(["owned-renamed"]);
    expect(read.body.blueprints).toEqual([updated.body]);
    // Deleting an unused blueprint detaches it from its collection.
    expect((await client.delete("/blueprints/owned-renamed")).status).toBe(204);
    const after = await client.get("/collections/owner");
    expect(after.body.blueprint_handles).toEqual([]);
    expect(after.body.blueprints).toEqual([]);
  });
});

describe("delete", () => {
  it("answers 204 with an empty body; then GET and DELETE are 404", async () => {
    const created = await client.post("/blueprints", { title: "Disposable" });
    const deleted = await client.delete(`/blueprints/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get(`/blueprints/${created.body.id}`), 404);
    expectError(await client.get("/blueprints/disposable"), 404);
    expectError(await client.delete("/blueprints/disposable"), 404);
    expect((await client.get("/blueprints?handle=disposable")).body.data).toEqual([]);
  });

  it("deletes by handle", async () => {
    await client.post("/blueprints", { title: "By Handle" });
    const deleted = await client.delete("/blueprints/by-handle");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get("/blueprints/by-handle"), 404);
  });

  it("answers 409 while entries use the blueprint, and 204 once they are gone", async () => {
    const blueprint = await client.post("/blueprints", {
      title: "Used",
      fields: [{ handle: "body", type: "text" }],
    });
    const collection = await client.post("/collections", {
      name: "Users",
      handle: "users",
      routing: "users/:handle",
      blueprint_handle: "used",
    });
    expect(collection.status).toBe(201);
    const entry = await client.post("/collections/users/entries", { handle: "e1", title: "E1", body: "x" });
    expect(entry.status, entry.text).toBe(201);

    expectError(await client.delete("/blueprints/used"), 409);
    expect((await client.get("/blueprints/used")).body).toEqual({
      ...blueprint.body,
      updated_at: expect.stringMatching(ISO),
    });
    expect((await client.get("/collections/users/entries/e1")).body).toMatchObject({
      body: "x",
      blueprint_handle: "used",
    });

    expect((await client.delete("/collections/users/entries/e1")).status).toBe(204);
    const deleted = await client.delete("/blueprints/used");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get("/blueprints/used"), 404);
    expect((await client.get("/collections/users")).body.blueprint_handles).toEqual([]);
  });
});

describe("field handles and owners", () => {
  it("allows `name` and `email` fields (a contact form's), refuses entry keys and `__` names", async () => {
    const contact = await client.post("/blueprints", {
      title: "Contact fields",
      fields: [
        { handle: "name", type: "text" },
        { handle: "email", type: "text" },
      ],
    });
    expect(contact.status, contact.text).toBe(201);
    expect(contact.body.fields.map((field: { handle: string }) => field.handle)).toEqual(["name", "email"]);

    expect422(
      await client.post("/blueprints", {
        title: "Clash",
        fields: [{ handle: "content_path", type: "text" }],
      }),
      "fields[0].handle",
    );
    expect422(
      await client.post("/blueprints", { title: "Proto", fields: [{ handle: "__proto__", type: "text" }] }),
      "fields[0].handle",
    );
  });

  it("keeps a global's own keys out of its fields and its blueprint out of /blueprints edits", async () => {
    expect422(
      await client.post("/globals", {
        name: "Footer",
        handle: "footer_clash",
        fields: [{ handle: "name", type: "text" }],
      }),
      "fields[0].handle",
    );
    const global = await client.post("/globals", {
      name: "Footer",
      handle: "footer_owned",
      fields: [{ handle: "copyright", type: "text" }],
    });
    expect(global.status, global.text).toBe(201);
    const blueprintId = global.body.blueprint.id;
    const edit = await client.put(`/blueprints/${blueprintId}`, { title: "Hijacked" });
    expect(expectError(edit, 409).map((detail) => detail.path)).toEqual(["id"]);
    expect((await client.get(`/blueprints/${blueprintId}`)).body.title).toBe("Footer");
    const removal = await client.delete(`/blueprints/${blueprintId}`);
    expectError(removal, 409);
    expect(removal.body.error).toBe("This blueprint is in use");
  });
});
