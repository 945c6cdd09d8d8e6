// Entries over REST: core fields and their defaults, create/read/update/delete, idempotent create by
// handle, blueprint choice, template references, listing and pagination, and concurrent writers
// (content-api.md "Entry" and "Entries"; decisions.md "REST decisions").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422Naming, expectCreated, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;

async function createCollection(body: Record<string, unknown>): Promise<any> {
  return expectCreated(client.post("/collections", body));
}

async function createEntry(collection: string, body: Record<string, unknown>): Promise<any> {
  return expectCreated(client.post(`/collections/${collection}/entries`, body));
}

const postFields = [
  { handle: "subtitle", type: "text" },
  { handle: "body", type: "rich_text" },
  { handle: "rating", type: "number" },
  { handle: "featured", type: "toggle" },
];

let posts: any;

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server));
  posts = await createCollection({
    name: "Posts",
    handle: "posts",
    routing: "blog/:handle",
    blueprint: { fields: postFields },
  });
});
afterAll(() => server?.stop());

describe("core fields", () => {
  it("creates an entry with the documented defaults", async () => {
    const response = await client.post("/collections/posts/entries", { title: "Hello", handle: "hello" });
    expect(response.status, response.text).toBe(201);
    const entry = response.body;
    expect(entry).toMatchObject({
      title: "Hello",
      handle: "hello",
      published: true,
      include_in_sitemap: true,
      position: 0,
      published_at: null,
      template_handle: null,
      layout_handle: null,
      routing_override: null,
      blueprint_handle: posts.blueprint_handles[0],
      collection_handle: "posts",
      content_path: "/blog/hello",
    });
    expect(entry.id).toMatch(/^cnety_/);
    expect(entry.created_at).toMatch(ISO);
    expect(entry.updated_at).toMatch(ISO);
    expect(entry).not.toHaveProperty("values");
  });

  it("uses the collection's first blueprint by default", async () => {
    const collection = await client.get("/collections/posts");
    expect(collection.body.blueprint_handles).toHaveLength(1);
    const entry = await createEntry("posts", { title: "Default blueprint", handle: "default-blueprint" });
    expect(entry.blueprint_handle).toBe(collection.body.blueprint_handles[0]);
    expect(entry.blueprint_handle).toBe(collection.body.blueprints[0].handle);
  });

  it("stores the core fields that are sent", async () => {
    const entry = await createEntry("posts", {
      title: "Draft",
      handle: "draft-post",
      published: false,
      include_in_sitemap: false,
      position: 7,
      published_at: "2024-05-01T09:30:00Z",
    });
    expect(entry).toMatchObject({ published: false, include_in_sitemap: false, position: 7 });
    expect(new Date(entry.published_at).toISOString()).toBe("2024-05-01T09:30:00.000Z");
    const read = await client.get(`/collections/posts/entries/${entry.id}`);
    expect(read.body).toMatchObject({ published: false, include_in_sitemap: false, position: 7 });
  });

  it("sends and returns blueprint values as top-level keys", async () => {
    const values = {
      subtitle: "A subtitle",
      body: "<p>Rich <strong>text</strong></p>",
      rating: 4.5,
      featured: true,
    };
    const created = await createEntry("posts", { title: "Valued", handle: "valued", ...values });
    expect(created).toMatchObject(values);
    const read = await client.get("/collections/posts/entries/valued");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.id, ...values });
    expect(read.body).not.toHaveProperty("values");
  });

  it("drops keys that are not fields of the blueprint, silently", async () => {
    const response = await client.post("/collections/posts/entries", {
      title: "Extra keys",
      handle: "extra-keys",
      subtitle: "kept",
      not_a_field: "dropped",
      another: { nested: true },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.subtitle).toBe("kept");
    expect(response.body).not.toHaveProperty("not_a_field");
    expect(response.body).not.toHaveProperty("another");
    const read = await client.get("/collections/posts/entries/extra-keys");
    expect(read.body).not.toHaveProperty("not_a_field");
    expect(read.body).not.toHaveProperty("another");
  });

  it("ignores the read-only content_path, collection_handle and routing_override", async () => {
    const response = await client.post("/collections/posts/entries", {
      title: "Read only",
      handle: "read-only",
      content_path: "/elsewhere",
      collection_handle: "other",
      routing_override: "custom/path",
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      content_path: "/blog/read-only",
      collection_handle: "posts",
      routing_override: null,
    });
    const patched = await client.patch("/collections/posts/entries/read-only", {
      content_path: "/elsewhere",
      routing_override: "custom/path",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ content_path: "/blog/read-only", routing_override: null });
  });

  it("requires a title on create (422, path title)", async () => {
    expect422Naming(await client.post("/collections/posts/entries", { handle: "no-title" }), "title");
    expect422Naming(
      await client.post("/collections/posts/entries", { handle: "empty-title", title: "" }),
      "title",
    );
    expect((await client.get("/collections/posts/entries/no-title")).status).toBe(404);
  });

  it("requires a handle (422, path handle)", async () => {
    const response = await client.post("/collections/posts/entries", { title: "No handle" });
    expect422Naming(response, "handle");
    const list = await client.get("/collections/posts/entries");
    expect(list.body.data.map((entry: any) => entry.title)).not.toContain("No handle");
  });

  it("accepts hyphenated handles", async () => {
    const entry = await createEntry("posts", { title: "Hyphen", handle: "my-first-post" });
    expect(entry.handle).toBe("my-first-post");
  });

  it("keeps handles unique per collection, not per account", async () => {
    await createCollection({
      name: "News",
      handle: "news",
      routing: "news/:handle",
      blueprint: { fields: [] },
    });
    const inPosts = await createEntry("posts", { title: "Shared", handle: "shared" });
    const inNews = await createEntry("news", { title: "Shared", handle: "shared" });
    expect(inNews.id).not.toBe(inPosts.id);
    expect(inNews).toMatchObject({ collection_handle: "news", content_path: "/news/shared" });
  });

  it("refuses core fields of the wrong type (422 on that field, assumed)", async () => {
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "T",
        handle: "bad-position",
        position: "first",
      }),
      "position",
    );
    expect422Naming(
      await client.post("/collections/posts/entries", { title: "T", handle: "bad-position", position: 1.5 }),
      "position",
    );
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "T",
        handle: "bad-published",
        published: "yes",
      }),
      "published",
    );
    expect((await client.get("/collections/posts/entries/bad-position")).status).toBe(404);
  });

  it("moves updated_at on update and keeps created_at", async () => {
    const created = await createEntry("posts", { title: "Timed", handle: "timed" });
    await new Promise((resolve) => setTimeout(resolve, 25));
    const updated = await client.patch("/collections/posts/entries/timed", { title: "Timed again" });
    expect(updated.body.created_at).toBe(created.created_at);
    expect(new Date(updated.body.updated_at).getTime()).toBeGreaterThan(
      new Date(created.updated_at).getTime(),
    );
  });

  it("makes the title optional on update", async () => {
    await createEntry("posts", { title: "Titled", handle: "titled" });
    const patched = await client.patch("/collections/posts/entries/titled", { position: 3 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ title: "Titled", position: 3 });
  });
});

describe("reading", () => {
  let entry: any;

  beforeAll(async () => {
    entry = await createEntry("posts", { title: "Readable", handle: "readable", subtitle: "s" });
  });

  it("GETs an entry by its cnety_ ID and by its handle", async () => {
    const byId = await client.get(`/collections/posts/entries/${entry.id}`);
    const byHandle = await client.get("/collections/posts/entries/readable");
    expect(byId.status).toBe(200);
    expect(byHandle.status).toBe(200);
    expect(byId.body).toEqual(entry);
    expect(byHandle.body).toEqual(entry);
  });

  it("accepts the collection's clctn_ ID or handle in the path", async () => {
    expect(posts.id).toMatch(/^clctn_/);
    const byId = await client.get(`/collections/${posts.id}/entries/readable`);
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBe(entry.id);
    const list = await client.get(`/collections/${posts.id}/entries?handle=readable`);
    expect(list.body.data.map((e: any) => e.id)).toEqual([entry.id]);
    const patched = await client.patch(`/collections/${posts.id}/entries/${entry.id}`, { position: 2 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.position).toBe(2);
  });

  it("answers 404 for an unknown entry or collection", async () => {
    expect((await client.get("/collections/posts/entries/missing")).status).toBe(404);
    expect((await client.get("/collections/posts/entries/cnety_0000000000aaaaaaaaaaaaaaaa")).status).toBe(
      404,
    );
    expect((await client.get("/collections/missing/entries")).status).toBe(404);
    expect((await client.get("/collections/missing/entries/readable")).status).toBe(404);
    expect((await client.post("/collections/missing/entries", { title: "x", handle: "x" })).status).toBe(404);
  });

  it("does not find an entry through another collection", async () => {
    expect((await client.get(`/collections/news/entries/${entry.id}`)).status).toBe(404);
    expect((await client.get("/collections/news/entries/readable")).status).toBe(404);
  });
});

describe("listing", () => {
  beforeAll(async () => {
    await createCollection({
      name: "Listing",
      handle: "listing",
      routing: "list/:handle",
      blueprint: { fields: [] },
    });
  });

  it("lists newest created first, with published and handle filters", async () => {
    await createCollection({
      name: "Small",
      handle: "small",
      routing: "small/:handle",
      blueprint: { fields: [] },
    });
    const first = await createEntry("small", { title: "First", handle: "first" });
    const second = await createEntry("small", { title: "Second", handle: "second", published: false });
    const third = await createEntry("small", { title: "Third", handle: "third" });

    const all = await client.get("/collections/small/entries");
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: any) => e.handle)).toEqual(["third", "second", "first"]);
    expect(all.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 3,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });

    const published = await client.get("/collections/small/entries?published=true");
    expect(published.status, published.text).toBe(200);
    expect(published.body.data.map((e: any) => e.id)).toEqual([third.id, first.id]);
    expect(published.body.pagination.total).toBe(2);

    const unpublished = await client.get("/collections/small/entries?published=false");
    expect(unpublished.status, unpublished.text).toBe(200);
    expect(unpublished.body.data.map((e: any) => e.id)).toEqual([second.id]);
    expect(unpublished.body.pagination.total).toBe(1);

    const byHandle = await client.get("/collections/small/entries?handle=second");
    expect(byHandle.body.data).toHaveLength(1);
    expect(byHandle.body.data[0]).toMatchObject({ id: second.id, handle: "second", title: "Second" });
    expect(byHandle.body.pagination.total).toBe(1);

    const none = await client.get("/collections/small/entries?handle=nothing");
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination).toMatchObject({ total: 0, next_page: null, prev_page: null });
  });

  it("returns list items in the same shape as single entries", async () => {
    await createEntry("posts", { title: "Shape", handle: "shape", subtitle: "sub", rating: 2 });
    const list = await client.get("/collections/posts/entries?handle=shape");
    const single = await client.get("/collections/posts/entries/shape");
    expect(list.body.data[0]).toEqual(single.body);
    expect(list.body.data[0]).toMatchObject({ subtitle: "sub", rating: 2 });
    expect(list.body.data[0]).not.toHaveProperty("values");
  });

  it("paginates 20 a page with the documented envelope", async () => {
    const handles: string[] = [];
    for (let i = 0; i < 45; i++) {
      const handle = `item-${String(i).padStart(2, "0")}`;
      handles.push(handle);
      await createEntry("listing", { title: `Item ${i}`, handle });
    }
    const newestFirst = [...handles].reverse();

    const page1 = await client.get("/collections/listing/entries");
    expect(page1.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: 2,
      prev_page: null,
    });
    expect(page1.body.data.map((e: any) => e.handle)).toEqual(newestFirst.slice(0, 20));

    const page2 = await client.get("/collections/listing/entries?page=2");
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: 3,
      prev_page: 1,
    });
    expect(page2.body.data.map((e: any) => e.handle)).toEqual(newestFirst.slice(20, 40));

    const page3 = await client.get("/collections/listing/entries?page=3");
    expect(page3.body.pagination).toEqual({
      page: 3,
      per_page: 20,
      total: 45,
      total_pages: 3,
      next_page: null,
      prev_page: 2,
    });
    expect(page3.body.data.map((e: any) => e.handle)).toEqual(newestFirst.slice(40));

    // The handle filter matches exactly, not by prefix.
    const exact = await client.get("/collections/listing/entries?handle=item-01");
    expect(exact.body.data.map((e: any) => e.handle)).toEqual(["item-01"]);
    expect((await client.get("/collections/listing/entries?handle=item-0")).body.data).toEqual([]);
  });
});

describe("create by handle, update and delete", () => {
  it("POST with an existing handle updates that entry (200, same id)", async () => {
    const created = await client.post("/collections/posts/entries", {
      title: "Original",
      handle: "upsert-me",
      subtitle: "first subtitle",
      rating: 1,
    });
    expect(created.status, created.text).toBe(201);
    const again = await client.post("/collections/posts/entries", {
      title: "Changed",
      handle: "upsert-me",
      rating: 5,
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({
      id: created.body.id,
      title: "Changed",
      handle: "upsert-me",
      rating: 5,
    });
    // Assumed: the update by POST is partial like PUT/PATCH; unsent values stay.
    expect(again.body.subtitle).toBe("first subtitle");
    const list = await client.get("/collections/posts/entries?handle=upsert-me");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].id).toBe(created.body.id);
  });

  it.each(["put", "patch"] as const)("%s changes only the fields that are sent", async (method) => {
    const handle = `partial-${method}`;
    const created = await createEntry("posts", {
      title: "Before",
      handle,
      subtitle: "keep me",
      body: "<p>keep</p>",
      rating: 3,
      featured: true,
      position: 4,
      published: false,
      include_in_sitemap: false,
      published_at: "2024-01-02T03:04:05Z",
    });
    const updated = await client[method](`/collections/posts/entries/${handle}`, {
      title: "After",
      rating: 9,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.id,
      title: "After",
      rating: 9,
      handle,
      subtitle: "keep me",
      body: "<p>keep</p>",
      featured: true,
      position: 4,
      published: false,
      include_in_sitemap: false,
      published_at: created.published_at,
      content_path: `/blog/${handle}`,
      created_at: created.created_at,
    });
    expect(new Date(updated.body.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(created.updated_at).getTime(),
    );
    const read = await client.get(`/collections/posts/entries/${created.id}`);
    expect(read.body).toEqual(updated.body);

    const valuesOnly = await client[method](`/collections/posts/entries/${created.id}`, {
      subtitle: "changed",
    });
    expect(valuesOnly.status, valuesOnly.text).toBe(200);
    expect(valuesOnly.body).toMatchObject({
      title: "After",
      subtitle: "changed",
      body: "<p>keep</p>",
      rating: 9,
    });
  });

  it("changes the handle, and with it the content path, on update", async () => {
    const created = await createEntry("posts", { title: "Renamed", handle: "old-name" });
    const updated = await client.patch("/collections/posts/entries/old-name", { handle: "new-name" });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.id,
      handle: "new-name",
      content_path: "/blog/new-name",
    });
    expect((await client.get("/collections/posts/entries/old-name")).status).toBe(404);
    expect((await client.get("/collections/posts/entries/new-name")).body.id).toBe(created.id);
  });

  it("refuses to rename an entry onto another entry's handle (422, path handle)", async () => {
    await createEntry("posts", { title: "Taken", handle: "taken" });
    await createEntry("posts", { title: "Mover", handle: "mover" });
    expect422Naming(await client.patch("/collections/posts/entries/mover", { handle: "taken" }), "handle");
    expect((await client.get("/collections/posts/entries/mover")).status).toBe(200);
  });

  it("answers 404 when updating an unknown entry", async () => {
    expect((await client.patch("/collections/posts/entries/never-there", { title: "x" })).status).toBe(404);
    expect((await client.put("/collections/posts/entries/never-there", { title: "x" })).status).toBe(404);
  });

  it("DELETE answers 204 with an empty body, then the entry is gone (404)", async () => {
    const entry = await createEntry("posts", { title: "Doomed", handle: "doomed" });
    const deleted = await client.delete(`/collections/posts/entries/${entry.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await client.get(`/collections/posts/entries/${entry.id}`)).status).toBe(404);
    expect((await client.get("/collections/posts/entries/doomed")).status).toBe(404);
    expect((await client.delete(`/collections/posts/entries/${entry.id}`)).status).toBe(404);
    expect((await client.get("/collections/posts/entries?handle=doomed")).body.data).toEqual([]);
  });

  it("DELETE accepts the handle and the collection's ID", async () => {
    await createEntry("posts", { title: "Doomed too", handle: "doomed-too" });
    const deleted = await client.delete(`/collections/${posts.id}/entries/doomed-too`);
    expect(deleted.status).toBe(204);
    expect((await client.get("/collections/posts/entries/doomed-too")).status).toBe(404);
  });

  it("a deleted handle can be created again as a new entry (201)", async () => {
    const first = await createEntry("posts", { title: "Phoenix", handle: "phoenix" });
    expect((await client.delete("/collections/posts/entries/phoenix")).status).toBe(204);
    const second = await client.post("/collections/posts/entries", { title: "Phoenix", handle: "phoenix" });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
  });
});

describe("blueprint_handle", () => {
  it("accepts one of the collection's blueprints on create", async () => {
    const handle = posts.blueprint_handles[0];
    const entry = await createEntry("posts", {
      title: "Chosen",
      handle: "chosen-blueprint",
      blueprint_handle: handle,
    });
    expect(entry.blueprint_handle).toBe(handle);
  });

  it("refuses a blueprint that is not the collection's (422, path blueprint_handle)", async () => {
    const standalone = await client.post("/blueprints", {
      title: "Standalone",
      handle: "standalone",
      fields: [],
    });
    expect(standalone.status, standalone.text).toBeLessThan(300);
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "x",
        handle: "bp-standalone",
        blueprint_handle: "standalone",
      }),
      "blueprint_handle",
    );
    const news = await client.get("/collections/news");
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "x",
        handle: "bp-foreign",
        blueprint_handle: news.body.blueprint_handles[0],
      }),
      "blueprint_handle",
    );
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "x",
        handle: "bp-unknown",
        blueprint_handle: "no-such-blueprint",
      }),
      "blueprint_handle",
    );
    expect((await client.get("/collections/posts/entries/bp-standalone")).status).toBe(404);
  });

  it("refuses entries in a collection without a blueprint (422, path blueprint_handle)", async () => {
    const bare = await createCollection({ name: "Bare", handle: "bare", routing: "bare/:handle" });
    expect(bare.blueprint_handles).toEqual([]);
    expect422Naming(
      await client.post("/collections/bare/entries", { title: "Orphan", handle: "orphan" }),
      "blueprint_handle",
    );
    expect((await client.get("/collections/bare/entries")).body.pagination.total).toBe(0);
  });

  it("cannot be changed on update (ignored)", async () => {
    const entry = await createEntry("posts", {
      title: "Fixed blueprint",
      handle: "fixed-blueprint",
      subtitle: "s",
    });
    for (const method of ["put", "patch"] as const) {
      const updated = await client[method]("/collections/posts/entries/fixed-blueprint", {
        blueprint_handle: "standalone",
        title: `Still fixed ${method}`,
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({
        blueprint_handle: entry.blueprint_handle,
        title: `Still fixed ${method}`,
        subtitle: "s",
      });
    }
    const again = await client.post("/collections/posts/entries", {
      title: "Still fixed post",
      handle: "fixed-blueprint",
      blueprint_handle: "standalone",
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.blueprint_handle).toBe(entry.blueprint_handle);
  });
});

describe("template_handle and layout_handle", () => {
  it("refuse an unknown handle on create (422, path = the field name)", async () => {
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "T",
        handle: "bad-template",
        template_handle: "nope",
      }),
      "template_handle",
    );
    expect422Naming(
      await client.post("/collections/posts/entries", {
        title: "T",
        handle: "bad-layout",
        layout_handle: "nope",
      }),
      "layout_handle",
    );
    const both = await client.post("/collections/posts/entries", {
      title: "T",
      handle: "bad-both",
      template_handle: "nope",
      layout_handle: "nope-either",
    });
    expect422Naming(both, "template_handle");
    expect422Naming(both, "layout_handle");
    for (const handle of ["bad-template", "bad-layout", "bad-both"]) {
      expect((await client.get(`/collections/posts/entries/${handle}`)).status).toBe(404);
    }
  });

  it("refuse an unknown handle on update (422), leaving the entry unchanged", async () => {
    await createEntry("posts", { title: "Templated", handle: "templated" });
    expect422Naming(
      await client.patch("/collections/posts/entries/templated", { template_handle: "nope", title: "Nope" }),
      "template_handle",
    );
    expect422Naming(
      await client.put("/collections/posts/entries/templated", { layout_handle: "nope" }),
      "layout_handle",
    );
    const read = await client.get("/collections/posts/entries/templated");
    expect(read.body).toMatchObject({ title: "Templated", template_handle: null, layout_handle: null });
  });

  it("accept existing templates, and null clears the override", async () => {
    const template = await client.post("/templates", {
      template: { title: "Post page", handle: "post-page", html: "<h1>{{ title }}</h1>" },
    });
    expect(template.status, template.text).toBe(201);
    const layout = await client.post("/templates", {
      template: {
        title: "Site layout",
        handle: "site-layout",
        html: "<main>{{ content_for_layout }}</main>",
        kind: "layout",
      },
    });
    expect(layout.status, layout.text).toBe(201);

    const created = await createEntry("posts", {
      title: "With template",
      handle: "with-template",
      template_handle: "post-page",
      layout_handle: "site-layout",
    });
    expect(created).toMatchObject({ template_handle: "post-page", layout_handle: "site-layout" });

    await createEntry("posts", { title: "Later template", handle: "later-template" });
    const patched = await client.patch("/collections/posts/entries/later-template", {
      template_handle: "post-page",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ template_handle: "post-page", layout_handle: null });

    const cleared = await client.patch("/collections/posts/entries/with-template", { template_handle: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ template_handle: null, layout_handle: "site-layout" });
  });
});

describe("concurrency", () => {
  it("30 concurrent POSTs of one new handle make exactly one entry", async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        client.post("/collections/posts/entries", { title: `Racer ${i}`, handle: "race", rating: i }),
      ),
    );
    const counts: Record<number, number> = {};
    for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
    const failures = responses
      .filter((r) => r.status !== 200 && r.status !== 201)
      .map((r) => `${r.status} ${r.text}`);
    expect(counts, failures.slice(0, 3).join("\n")).toEqual({ 200: 29, 201: 1 });
    const ids = new Set(responses.map((response) => response.body.id));
    expect(ids.size).toBe(1);
    const list = await client.get("/collections/posts/entries?handle=race");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].id).toBe([...ids][0]);
  });

  it("20 concurrent PATCHes of different fields all land", async () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({ handle: `f${i}`, type: "text" }));
    await createCollection({ name: "Wide", handle: "wide", routing: "wide/:handle", blueprint: { fields } });
    const entry = await createEntry("wide", { title: "Wide", handle: "wide-entry" });
    const responses = await Promise.all(
      fields.map((field, i) =>
        client.patch(`/collections/wide/entries/${entry.id}`, { [field.handle]: `value ${i}` }),
      ),
    );
    expect(
      responses.map((response) => response.status),
      JSON.stringify(responses.map((r) => r.text)),
    ).toEqual(fields.map(() => 200));
    const read = await client.get(`/collections/wide/entries/${entry.id}`);
    for (const [i, field] of fields.entries()) expect(read.body[field.handle]).toBe(`value ${i}`);
  });
});
