// Entry content paths over REST: every routing shape, the root entry, parent/child routing through an
// entity field, and published_at (required by date routing, parsed as ISO 8601)
// (content-api.md "Routing placeholders" and "Entry"; decisions.md "content_path starts with /").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422Naming, expectCreated } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;

async function createCollection(body: Record<string, unknown>): Promise<any> {
  return expectCreated(client.post("/collections", { blueprint: { fields: [] }, ...body }));
}

async function createEntry(collection: string, body: Record<string, unknown>): Promise<any> {
  return expectCreated(client.post(`/collections/${collection}/entries`, body));
}

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server));
  await createCollection({ name: "Blog", handle: "blog", routing: "blog/:handle" });
  await createCollection({ name: "Monthly", handle: "monthly", routing: ":year/:month/:handle" });
  await createCollection({ name: "Daily", handle: "daily", routing: ":year/:month/:day/:handle" });
  await createCollection({ name: "Pages", handle: "pages", routing: ":handle", root_routing: true });
  await createCollection({ name: "Sections", handle: "sections", routing: "sections/:handle" });
  await createCollection({
    name: "Docs",
    handle: "docs",
    routing: ":parent/:handle",
    blueprint: {
      fields: [
        { handle: "parent", type: "entity", options: { collection: "sections" } },
        { handle: "body", type: "text" },
      ],
    },
  });
});
afterAll(() => server?.stop());

describe("content_path per routing shape", () => {
  it("blog/:handle serves /blog/<handle>", async () => {
    const entry = await createEntry("blog", { title: "Post", handle: "first-post" });
    expect(entry.content_path).toBe("/blog/first-post");
    expect((await client.get(`/collections/blog/entries/${entry.id}`)).body.content_path).toBe(
      "/blog/first-post",
    );
  });

  it(":year/:month/:handle takes the year and month of published_at", async () => {
    const entry = await createEntry("monthly", {
      title: "March",
      handle: "march",
      published_at: "2024-03-05T12:00:00Z",
    });
    expect(entry.content_path).toBe("/2024/03/march");
    const december = await createEntry("monthly", {
      title: "Dec",
      handle: "dec",
      published_at: "2019-12-31T12:00:00Z",
    });
    expect(december.content_path).toBe("/2019/12/dec");
  });

  it(":year/:month/:day/:handle takes the day too", async () => {
    const entry = await createEntry("daily", {
      title: "Day",
      handle: "day",
      published_at: "2024-03-05T12:00:00Z",
    });
    expect(entry.content_path).toBe("/2024/03/05/day");
  });

  it(":handle serves /<handle>", async () => {
    const entry = await createEntry("pages", { title: "About", handle: "about" });
    expect(entry.content_path).toBe("/about");
  });

  it("the root_routing collection's entry 'index' has content_path /", async () => {
    const index = await createEntry("pages", { title: "Home", handle: "index" });
    expect(index.content_path).toBe("/");
    expect((await client.get("/collections/pages/entries/index")).body.content_path).toBe("/");
    // Only the root_routing collection's index is the root.
    const blogIndex = await createEntry("blog", { title: "Blog index", handle: "index" });
    expect(blogIndex.content_path).toBe("/blog/index");
  });

  it("an entry renamed to or from 'index' in the root collection moves to or from /", async () => {
    await createEntry("pages", { title: "Landing", handle: "landing" });
    const home = await client.patch("/collections/pages/entries/index", { handle: "old-home" });
    expect(home.status, home.text).toBe(200);
    expect(home.body.content_path).toBe("/old-home");
    const landing = await client.patch("/collections/pages/entries/landing", { handle: "index" });
    expect(landing.status, landing.text).toBe(200);
    expect(landing.body.content_path).toBe("/");
  });

  it("follows the handle", async () => {
    const entry = await createEntry("blog", { title: "Moving", handle: "moving" });
    const updated = await client.patch(`/collections/blog/entries/${entry.id}`, { handle: "moved" });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.content_path).toBe("/blog/moved");
    const monthly = await createEntry("monthly", {
      title: "M",
      handle: "m-old",
      published_at: "2024-01-15T12:00:00Z",
    });
    const renamed = await client.put(`/collections/monthly/entries/${monthly.id}`, { handle: "m-new" });
    expect(renamed.body.content_path).toBe("/2024/01/m-new");
  });

  it("follows published_at", async () => {
    const entry = await createEntry("daily", {
      title: "Dated",
      handle: "dated",
      published_at: "2024-03-05T12:00:00Z",
    });
    const updated = await client.patch(`/collections/daily/entries/${entry.id}`, {
      published_at: "2023-07-14T08:00:00Z",
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.content_path).toBe("/2023/07/14/dated");
    expect((await client.get("/collections/daily/entries/dated")).body.content_path).toBe(
      "/2023/07/14/dated",
    );
  });

  it("keeps the stored date when POST updates an existing handle without published_at", async () => {
    const entry = await createEntry("monthly", {
      title: "Upsert",
      handle: "upsert-dated",
      published_at: "2021-09-09T12:00:00Z",
    });
    const again = await client.post("/collections/monthly/entries", {
      title: "Upsert again",
      handle: "upsert-dated",
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({
      id: entry.id,
      title: "Upsert again",
      content_path: "/2021/09/upsert-dated",
    });
  });

  it("does not change with unrelated updates", async () => {
    const entry = await createEntry("monthly", {
      title: "Stable",
      handle: "stable",
      published_at: "2022-02-02T12:00:00Z",
    });
    const updated = await client.patch(`/collections/monthly/entries/${entry.id}`, {
      title: "Still stable",
      position: 5,
    });
    expect(updated.body.content_path).toBe("/2022/02/stable");
  });

  it("ignores published_at where the routing has no date", async () => {
    const entry = await createEntry("blog", {
      title: "Dated blog",
      handle: "dated-blog",
      published_at: "2020-01-01T12:00:00Z",
    });
    expect(entry.content_path).toBe("/blog/dated-blog");
    expect(new Date(entry.published_at).toISOString()).toBe("2020-01-01T12:00:00.000Z");
  });
});

describe("published_at", () => {
  it("is required by date routing on create (422, path published_at)", async () => {
    expect422Naming(
      await client.post("/collections/monthly/entries", { title: "Undated", handle: "undated" }),
      "published_at",
    );
    expect422Naming(
      await client.post("/collections/daily/entries", {
        title: "Undated",
        handle: "undated",
        published_at: null,
      }),
      "published_at",
    );
    expect((await client.get("/collections/monthly/entries/undated")).status).toBe(404);
  });

  it("cannot be cleared on update under date routing (422, path published_at)", async () => {
    await createEntry("monthly", {
      title: "Keep date",
      handle: "keep-date",
      published_at: "2024-06-01T12:00:00Z",
    });
    expect422Naming(
      await client.patch("/collections/monthly/entries/keep-date", { published_at: null }),
      "published_at",
    );
    expect422Naming(
      await client.put("/collections/monthly/entries/keep-date", { published_at: null }),
      "published_at",
    );
    const read = await client.get("/collections/monthly/entries/keep-date");
    expect(new Date(read.body.published_at).toISOString()).toBe("2024-06-01T12:00:00.000Z");
    expect(read.body.content_path).toBe("/2024/06/keep-date");
  });

  it("may be cleared where the routing has no date", async () => {
    await createEntry("blog", {
      title: "Clear date",
      handle: "clear-date",
      published_at: "2024-06-01T12:00:00Z",
    });
    const cleared = await client.patch("/collections/blog/entries/clear-date", { published_at: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.published_at).toBeNull();
  });

  it("an unparseable value is a 422 on published_at, on create and on update", async () => {
    for (const value of ["not a date", "2024-13-01T00:00:00Z", "2024-02-30", "yesterday", 12345]) {
      expect422Naming(
        await client.post("/collections/blog/entries", {
          title: "Bad date",
          handle: "bad-date",
          published_at: value,
        }),
        "published_at",
      );
      expect422Naming(
        await client.post("/collections/monthly/entries", {
          title: "Bad date",
          handle: "bad-date",
          published_at: value,
        }),
        "published_at",
      );
    }
    expect((await client.get("/collections/blog/entries/bad-date")).status).toBe(404);
    await createEntry("blog", {
      title: "Good date",
      handle: "good-date",
      published_at: "2024-06-01T12:00:00Z",
    });
    expect422Naming(
      await client.patch("/collections/blog/entries/good-date", { published_at: "soon" }),
      "published_at",
    );
    const read = await client.get("/collections/blog/entries/good-date");
    expect(new Date(read.body.published_at).toISOString()).toBe("2024-06-01T12:00:00.000Z");
  });

  it("accepts a date without a time", async () => {
    const entry = await createEntry("daily", {
      title: "Date only",
      handle: "date-only",
      published_at: "2024-02-29",
    });
    expect(entry.published_at).toMatch(/^2024-02-29/);
    expect(entry.content_path).toBe("/2024/02/29/date-only");
  });

  it("accepts a UTC offset and returns an ISO 8601 timestamp", async () => {
    const entry = await createEntry("blog", {
      title: "Offset",
      handle: "offset",
      published_at: "2024-05-01T11:30:00+02:00",
    });
    expect(new Date(entry.published_at).toISOString()).toBe("2024-05-01T09:30:00.000Z");
    expect(entry.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  });
});

describe("parent/child routing (:parent/:handle)", () => {
  let guides: any;
  let reference: any;

  beforeAll(async () => {
    guides = await createEntry("sections", { title: "Guides", handle: "guides" });
    reference = await createEntry("sections", { title: "Reference", handle: "reference" });
  });

  it("builds the path from the parent's handle", async () => {
    const byHandle = await createEntry("docs", { title: "Intro", handle: "intro", parent: "guides" });
    expect(byHandle.content_path).toBe("/guides/intro");
    expect(byHandle.parent).toMatchObject({
      id: guides.id,
      handle: "guides",
      content_path: "/sections/guides",
    });
    const byId = await createEntry("docs", { title: "API", handle: "api", parent: reference.id });
    expect(byId.content_path).toBe("/reference/api");
    const qualified = await createEntry("docs", {
      title: "Setup",
      handle: "setup",
      parent: "sections:guides",
    });
    expect(qualified.content_path).toBe("/guides/setup");
  });

  it("needs the parent on create (422, path parent)", async () => {
    expect422Naming(
      await client.post("/collections/docs/entries", { title: "Orphan", handle: "orphan" }),
      "parent",
    );
    expect422Naming(
      await client.post("/collections/docs/entries", { title: "Orphan", handle: "orphan", parent: null }),
      "parent",
    );
    expect422Naming(
      await client.post("/collections/docs/entries", {
        title: "Orphan",
        handle: "orphan",
        parent: "nowhere",
      }),
      "parent",
    );
    expect((await client.get("/collections/docs/entries/orphan")).status).toBe(404);
  });

  it("refuses to clear the parent on update (422, path parent)", async () => {
    await createEntry("docs", { title: "Anchored", handle: "anchored", parent: "guides" });
    expect422Naming(await client.patch("/collections/docs/entries/anchored", { parent: null }), "parent");
    const read = await client.get("/collections/docs/entries/anchored");
    expect(read.body.content_path).toBe("/guides/anchored");
    expect(read.body.parent.id).toBe(guides.id);
  });

  it("keeps the path when other fields change", async () => {
    await createEntry("docs", { title: "Steady", handle: "steady", parent: "guides" });
    const updated = await client.patch("/collections/docs/entries/steady", {
      body: "text",
      title: "Steady still",
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.content_path).toBe("/guides/steady");
  });

  it("moves with a new parent and with its own handle", async () => {
    await createEntry("docs", { title: "Wanderer", handle: "wanderer", parent: "guides" });
    const moved = await client.patch("/collections/docs/entries/wanderer", { parent: "reference" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.content_path).toBe("/reference/wanderer");
    const renamed = await client.patch("/collections/docs/entries/wanderer", { handle: "traveller" });
    expect(renamed.body.content_path).toBe("/reference/traveller");
  });

  it("follows the parent when the parent's handle changes", async () => {
    const section = await createEntry("sections", { title: "Tutorials", handle: "tutorials" });
    const first = await createEntry("docs", { title: "Lesson 1", handle: "lesson-1", parent: section.id });
    const second = await createEntry("docs", { title: "Lesson 2", handle: "lesson-2", parent: "tutorials" });
    expect(first.content_path).toBe("/tutorials/lesson-1");

    const renamed = await client.patch(`/collections/sections/entries/${section.id}`, { handle: "courses" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.content_path).toBe("/sections/courses");

    expect((await client.get(`/collections/docs/entries/${first.id}`)).body.content_path).toBe(
      "/courses/lesson-1",
    );
    expect((await client.get(`/collections/docs/entries/${second.id}`)).body.content_path).toBe(
      "/courses/lesson-2",
    );
    const list = await client.get("/collections/docs/entries?handle=lesson-2");
    expect(list.body.data[0].content_path).toBe("/courses/lesson-2");
    expect(list.body.data[0].parent).toMatchObject({ id: section.id, handle: "courses" });
  });
});
