// Blueprint values of entries over REST: the sent and returned format of every field type, 422s on the
// field's path, null clearing a value, and entity references with their expansion
// (content-api.md "Field value formats"; decisions.md "Field options").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422Naming, expectCreated } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;
let other: Api;

async function createCollection(target: Api, body: Record<string, unknown>): Promise<any> {
  return expectCreated(target.post("/collections", body));
}

async function createEntry(
  collection: string,
  body: Record<string, unknown>,
  target: Api = client,
): Promise<any> {
  return expectCreated(target.post(`/collections/${collection}/entries`, body));
}

const thingFields = [
  { handle: "headline", type: "text" },
  { handle: "body", type: "rich_text" },
  { handle: "snippet", type: "raw_html" },
  { handle: "price", type: "number", options: { number_type: "decimal", decimal_places: 2 } },
  { handle: "active", type: "toggle" },
  { handle: "color", type: "enumerate", options: { enumerations: ["red", "green", "blue"] } },
  { handle: "hero", type: "image" },
  { handle: "photos", type: "gallery" },
  { handle: "clip", type: "video" },
  { handle: "tags", type: "list" },
  { handle: "meta", type: "dictionary" },
];

beforeAll(async () => {
  server = await startServer();
  const [first, second] = await Promise.all([
    createAccount(server, "Values"),
    createAccount(server, "Other"),
  ]);
  client = api(server, first);
  other = api(server, second);
  await createCollection(client, {
    name: "Things",
    handle: "things",
    routing: "things/:handle",
    blueprint: { fields: thingFields },
  });
  await createCollection(client, {
    name: "Authors",
    handle: "authors",
    routing: "authors/:handle",
    blueprint: { fields: [{ handle: "bio", type: "text" }] },
  });
  await createCollection(client, {
    name: "Articles",
    handle: "articles",
    routing: "articles/:handle",
    blueprint: {
      fields: [
        { handle: "summary", type: "text" },
        { handle: "author", type: "entity", options: { collection: "authors" } },
        { handle: "related", type: "entity" },
        { handle: "coauthors", type: "entity", options: { collection: "authors", multiple: true } },
      ],
    },
  });
});
afterAll(() => server?.stop());

describe("scalar field types", () => {
  it("text, rich_text and raw_html: string in, same string out", async () => {
    const values = {
      headline: "Plain text with <angle> & ampersand",
      body: '<h2>Title</h2><p>Some <em>rich</em> text with a <a href="/x">link</a>.</p>',
      snippet: '<script type="application/ld+json">{"a":1}</script><div class="raw">raw</div>',
    };
    const created = await createEntry("things", { title: "Strings", handle: "strings", ...values });
    expect(created).toMatchObject(values);
    expect((await client.get("/collections/things/entries/strings")).body).toMatchObject(values);
  });

  it("number: numbers in, numbers out", async () => {
    const created = await createEntry("things", { title: "Numbers", handle: "numbers", price: 19.99 });
    expect(created.price).toBe(19.99);
    for (const price of [0, -5, 42, 1234.5]) {
      const updated = await client.patch("/collections/things/entries/numbers", { price });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.price).toBe(price);
    }
    expect((await client.get("/collections/things/entries/numbers")).body.price).toBe(1234.5);
  });

  it("number: a non-number is a 422 on the field's path", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-number", price: "abc" }),
      "price",
    );
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-number", price: "42" }),
      "price",
    );
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-number", price: true }),
      "price",
    );
    expect((await client.get("/collections/things/entries/bad-number")).status).toBe(404);
    await createEntry("things", { title: "Priced", handle: "priced", price: 5 });
    expect422Naming(await client.patch("/collections/things/entries/priced", { price: "cheap" }), "price");
    expect((await client.get("/collections/things/entries/priced")).body.price).toBe(5);
  });

  it("toggle: true and false are kept as booleans", async () => {
    const on = await createEntry("things", { title: "On", handle: "toggle-on", active: true });
    expect(on.active).toBe(true);
    const off = await createEntry("things", { title: "Off", handle: "toggle-off", active: false });
    expect(off.active).toBe(false);
    expect((await client.get("/collections/things/entries/toggle-off")).body.active).toBe(false);
    const flipped = await client.patch("/collections/things/entries/toggle-on", { active: false });
    expect(flipped.body.active).toBe(false);
  });

  it("toggle: a non-boolean is a 422 on the field's path (assumed)", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", {
        title: "Bad",
        handle: "bad-toggle",
        active: "maybe",
      }),
      "active",
    );
  });

  it("enumerate: one of options.enumerations in, the string out", async () => {
    const created = await createEntry("things", { title: "Green", handle: "green", color: "green" });
    expect(created.color).toBe("green");
    const updated = await client.patch("/collections/things/entries/green", { color: "blue" });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.color).toBe("blue");
  });

  it("enumerate: a value outside the enumerations is a 422 on the field's path", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", {
        title: "Bad",
        handle: "bad-color",
        color: "purple",
      }),
      "color",
    );
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-color", color: "Red" }),
      "color",
    );
    expect((await client.get("/collections/things/entries/bad-color")).status).toBe(404);
    await createEntry("things", { title: "Red", handle: "red", color: "red" });
    expect422Naming(await client.patch("/collections/things/entries/red", { color: "purple" }), "color");
    expect((await client.get("/collections/things/entries/red")).body.color).toBe("red");
  });

  it("reports every invalid field of one request", async () => {
    const response = await client.post("/collections/things/entries", {
      title: "Many problems",
      handle: "many-problems",
      price: "x",
      color: "purple",
    });
    expect422Naming(response, "price");
    expect422Naming(response, "color");
  });
});

describe("media field types", () => {
  it("image: filename, path/filename and /assets/path/filename all return the /assets URL path", async () => {
    const a = await createEntry("things", { title: "Image A", handle: "image-a", hero: "photos/cat.jpg" });
    expect(a.hero).toBe("/assets/photos/cat.jpg");
    const b = await createEntry("things", {
      title: "Image B",
      handle: "image-b",
      hero: "/assets/photos/cat.jpg",
    });
    expect(b.hero).toBe("/assets/photos/cat.jpg");
    const c = await createEntry("things", { title: "Image C", handle: "image-c", hero: "cat.jpg" });
    expect(c.hero).toMatch(/^\/assets\/(.+\/)?cat\.jpg$/);
    const nested = await createEntry("things", { title: "Image D", handle: "image-d", hero: "a/b/dog.png" });
    expect(nested.hero).toBe("/assets/a/b/dog.png");
    expect((await client.get("/collections/things/entries/image-b")).body.hero).toBe(
      "/assets/photos/cat.jpg",
    );
  });

  it("image: an unknown asset ID is a 422 on the field's path (assumed)", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", {
        title: "Bad",
        handle: "bad-image",
        hero: "acass_0000000000aaaaaaaaaaaaaaaa",
      }),
      "hero",
    );
  });

  it("gallery: an array of {type, url, id, thumbnail, filename, width, height} comes back the same", async () => {
    const photos = [
      {
        type: "image",
        url: "/assets/gallery/one.jpg",
        id: "acass_one",
        thumbnail: "/assets/gallery/one-thumb.jpg",
        filename: "one.jpg",
        width: 800,
        height: 600,
      },
      {
        type: "image",
        url: "/assets/gallery/two.png",
        id: "acass_two",
        thumbnail: "/assets/gallery/two-thumb.png",
        filename: "two.png",
        width: 1024,
        height: 768,
      },
    ];
    const created = await createEntry("things", { title: "Gallery", handle: "gallery", photos });
    expect(created.photos).toEqual(photos);
    expect((await client.get("/collections/things/entries/gallery")).body.photos).toEqual(photos);
    const emptied = await client.patch("/collections/things/entries/gallery", { photos: [] });
    expect(emptied.body.photos).toEqual([]);
  });

  it("gallery: a non-array is a 422 on the field's path (assumed)", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", {
        title: "Bad",
        handle: "bad-gallery",
        photos: "one.jpg",
      }),
      "photos",
    );
  });

  it("video: a YouTube URL becomes {url, video_id, thumbnail}", async () => {
    const url = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
    const created = await createEntry("things", { title: "Video", handle: "video-youtube", clip: url });
    expect(created.clip).toEqual({ url, video_id: "dQw4w9WgXcQ", thumbnail: expect.any(String) });
    expect(created.clip.thumbnail).toContain("dQw4w9WgXcQ");
    const short = await createEntry("things", {
      title: "Short",
      handle: "video-short",
      clip: "https://youtu.be/dQw4w9WgXcQ",
    });
    expect(short.clip).toMatchObject({ url: "https://youtu.be/dQw4w9WgXcQ", video_id: "dQw4w9WgXcQ" });
    expect((await client.get("/collections/things/entries/video-youtube")).body.clip).toEqual(created.clip);
  });

  it("video: any other URL becomes an object with that url", async () => {
    const url = "https://example.com/media/movie.mp4";
    const created = await createEntry("things", { title: "Other video", handle: "video-other", clip: url });
    expect(created.clip).toMatchObject({ url });
    expect(Object.keys(created.clip).sort()).toEqual(["thumbnail", "url", "video_id"]);
  });

  it("video: the object form {url, video_id, thumbnail} comes back as sent", async () => {
    const clip = {
      url: "https://vimeo.com/76979871",
      video_id: "76979871",
      thumbnail: "https://example.com/thumb.jpg",
    };
    const created = await createEntry("things", { title: "Object video", handle: "video-object", clip });
    expect(created.clip).toEqual(clip);
    expect((await client.get("/collections/things/entries/video-object")).body.clip).toEqual(clip);
  });
});

describe("structured field types", () => {
  it("list: array in, same array out", async () => {
    const tags = ["news", "tech", 3, { nested: true }];
    const created = await createEntry("things", { title: "List", handle: "list", tags });
    expect(created.tags).toEqual(tags);
    expect((await client.get("/collections/things/entries/list")).body.tags).toEqual(tags);
  });

  it("dictionary: object in, same object out", async () => {
    const meta = { author: "Jane", views: 10, flags: { pinned: true }, keywords: ["a", "b"] };
    const created = await createEntry("things", { title: "Dictionary", handle: "dictionary", meta });
    expect(created.meta).toEqual(meta);
    expect((await client.get("/collections/things/entries/dictionary")).body.meta).toEqual(meta);
  });

  it("list and dictionary refuse the wrong JSON kind (422, assumed)", async () => {
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-list", tags: "news" }),
      "tags",
    );
    expect422Naming(
      await client.post("/collections/things/entries", { title: "Bad", handle: "bad-dict", meta: ["a"] }),
      "meta",
    );
  });
});

describe("clearing values", () => {
  it("null clears a value and leaves the others", async () => {
    await createEntry("things", {
      title: "Clearable",
      handle: "clearable",
      headline: "h",
      price: 3,
      active: true,
      color: "red",
      hero: "x/y.jpg",
      tags: ["t"],
      meta: { k: "v" },
    });
    const cleared = await client.patch("/collections/things/entries/clearable", {
      headline: null,
      price: null,
      active: null,
      hero: null,
    });
    expect(cleared.status, cleared.text).toBe(200);
    for (const key of ["headline", "price", "active", "hero"]) expect(cleared.body[key] ?? null).toBeNull();
    expect(cleared.body).toMatchObject({ color: "red", tags: ["t"], meta: { k: "v" } });
    const read = await client.get("/collections/things/entries/clearable");
    for (const key of ["headline", "price", "active", "hero"]) expect(read.body[key] ?? null).toBeNull();
    expect(read.body).toMatchObject({ color: "red", tags: ["t"], meta: { k: "v" } });
  });

  it("null is accepted on create", async () => {
    const created = await createEntry("things", {
      title: "Null on create",
      handle: "null-create",
      price: null,
      color: null,
    });
    expect(created.price ?? null).toBeNull();
    expect(created.color ?? null).toBeNull();
  });
});

describe("entity fields", () => {
  let jane: any;
  let john: any;
  let background: any;

  beforeAll(async () => {
    jane = await createEntry("authors", {
      title: "Jane Doe",
      handle: "jane",
      bio: "Writes things.",
      published_at: "2024-02-03T10:00:00Z",
    });
    john = await createEntry("authors", { title: "John Roe", handle: "john", bio: "Edits things." });
    background = await createEntry("articles", {
      title: "Background",
      handle: "background",
      summary: "Context",
    });
  });

  const expanded = (entry: any, fields: Record<string, unknown>) => ({
    id: entry.id,
    title: entry.title,
    handle: entry.handle,
    ...fields,
    content_path: entry.content_path,
    published_at: entry.published_at,
  });

  it("accepts a cnety_ ID and expands the entry on read", async () => {
    const created = await createEntry("articles", { title: "By ID", handle: "by-id", author: jane.id });
    expect(created.author).toEqual(expanded(jane, { bio: "Writes things." }));
    expect(created.author).toMatchObject({ content_path: "/authors/jane", published_at: jane.published_at });
    expect(new Date(created.author.published_at).toISOString()).toBe("2024-02-03T10:00:00.000Z");
    const read = await client.get("/collections/articles/entries/by-id");
    expect(read.body.author).toEqual(expanded(jane, { bio: "Writes things." }));
  });

  it("accepts collection_handle:entry_handle", async () => {
    const created = await createEntry("articles", {
      title: "Qualified",
      handle: "qualified",
      related: "authors:john",
    });
    expect(created.related).toEqual(expanded(john, { bio: "Edits things." }));
    const ownCollection = await createEntry("articles", {
      title: "Qualified own",
      handle: "qualified-own",
      author: "authors:jane",
      related: "articles:background",
    });
    expect(ownCollection.author.id).toBe(jane.id);
    expect(ownCollection.related).toEqual(expanded(background, { summary: "Context" }));
  });

  it("resolves a bare handle in options.collection", async () => {
    const created = await createEntry("articles", { title: "Bare", handle: "bare-handle", author: "john" });
    expect(created.author).toEqual(expanded(john, { bio: "Edits things." }));
  });

  it("resolves a bare handle in the entry's own collection when options.collection is unset", async () => {
    const created = await createEntry("articles", {
      title: "Own",
      handle: "own-collection",
      related: "background",
    });
    expect(created.related).toEqual(expanded(background, { summary: "Context" }));
    // "jane" is an author, not an article: without options.collection it does not resolve.
    expect422Naming(
      await client.post("/collections/articles/entries", {
        title: "Bad",
        handle: "own-miss",
        related: "jane",
      }),
      "related",
    );
    // options.collection is authors: an article handle does not resolve there.
    expect422Naming(
      await client.post("/collections/articles/entries", {
        title: "Bad",
        handle: "option-miss",
        author: "background",
      }),
      "author",
    );
  });

  it("multiple: an array of cnety_ IDs comes back as an array of expanded entries, in order", async () => {
    const created = await createEntry("articles", {
      title: "Multi",
      handle: "multi",
      coauthors: [john.id, jane.id],
    });
    expect(created.coauthors).toEqual([
      expanded(john, { bio: "Edits things." }),
      expanded(jane, { bio: "Writes things." }),
    ]);
    const read = await client.get("/collections/articles/entries/multi");
    expect(read.body.coauthors.map((entry: any) => entry.id)).toEqual([john.id, jane.id]);
    const reordered = await client.patch("/collections/articles/entries/multi", { coauthors: [jane.id] });
    expect(reordered.status, reordered.text).toBe(200);
    expect(reordered.body.coauthors.map((entry: any) => entry.id)).toEqual([jane.id]);
    const empty = await client.patch("/collections/articles/entries/multi", { coauthors: [] });
    expect(empty.body.coauthors ?? []).toEqual([]);
  });

  it("an unresolvable reference is a 422 on the field's path", async () => {
    const bad = (body: Record<string, unknown>) =>
      client.post("/collections/articles/entries", { title: "Bad", handle: "bad-ref", ...body });
    expect422Naming(await bad({ author: "nobody" }), "author");
    expect422Naming(await bad({ author: "cnety_0000000000aaaaaaaaaaaaaaaa" }), "author");
    expect422Naming(await bad({ author: "authors:nobody" }), "author");
    expect422Naming(await bad({ author: "nowhere:jane" }), "author");
    expect422Naming(await bad({ coauthors: [jane.id, "cnety_0000000000aaaaaaaaaaaaaaaa"] }), "coauthors");
    expect((await client.get("/collections/articles/entries/bad-ref")).status).toBe(404);
  });

  it("does not resolve an entry of another account", async () => {
    await createCollection(other, {
      name: "Authors",
      handle: "authors",
      routing: "authors/:handle",
      blueprint: { fields: [] },
    });
    const foreign = await createEntry("authors", { title: "Foreign", handle: "foreign" }, other);
    expect422Naming(
      await client.post("/collections/articles/entries", {
        title: "Bad",
        handle: "cross-account",
        author: foreign.id,
      }),
      "author",
    );
    expect422Naming(
      await client.post("/collections/articles/entries", {
        title: "Bad",
        handle: "cross-account",
        author: "foreign",
      }),
      "author",
    );
  });

  it("sets, changes and clears a reference on update", async () => {
    await createEntry("articles", { title: "Changing", handle: "changing", summary: "s" });
    const set = await client.patch("/collections/articles/entries/changing", { author: "jane" });
    expect(set.status, set.text).toBe(200);
    expect(set.body.author.id).toBe(jane.id);
    const changed = await client.put("/collections/articles/entries/changing", { author: john.id });
    expect(changed.body.author.id).toBe(john.id);
    const kept = await client.patch("/collections/articles/entries/changing", { summary: "t" });
    expect(kept.body.author.id).toBe(john.id);
    expect422Naming(
      await client.patch("/collections/articles/entries/changing", { author: "nobody" }),
      "author",
    );
    expect((await client.get("/collections/articles/entries/changing")).body.author.id).toBe(john.id);
    const cleared = await client.patch("/collections/articles/entries/changing", { author: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.author ?? null).toBeNull();
    expect(cleared.body.summary).toBe("t");
  });

  it("expands the referenced entry as it is now", async () => {
    const author = await createEntry("authors", { title: "Old Name", handle: "renamable", bio: "old bio" });
    await createEntry("articles", { title: "Follows", handle: "follows", author: author.id });
    const renamed = await client.patch("/collections/authors/entries/renamable", {
      title: "New Name",
      handle: "renamed",
      bio: "new bio",
    });
    expect(renamed.status, renamed.text).toBe(200);
    const read = await client.get("/collections/articles/entries/follows");
    expect(read.body.author).toEqual(expanded(renamed.body, { bio: "new bio" }));
    expect(read.body.author).toMatchObject({
      title: "New Name",
      handle: "renamed",
      content_path: "/authors/renamed",
    });
  });

  it("expands an entry that refers to itself with what its own update wrote", async () => {
    const own = await createEntry("articles", { title: "Before", handle: "self-ref", summary: "old" });
    const updated = await client.patch("/collections/articles/entries/self-ref", {
      title: "After",
      summary: "new",
      related: own.id,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.related).toMatchObject({ id: own.id, title: "After", summary: "new" });
  });

  it("still answers when the referenced entry was deleted (assumed: the reference drops out)", async () => {
    const author = await createEntry("authors", { title: "Gone soon", handle: "gone-soon" });
    await createEntry("articles", {
      title: "Dangling",
      handle: "dangling",
      author: author.id,
      coauthors: [author.id, jane.id],
    });
    expect((await client.delete(`/collections/authors/entries/${author.id}`)).status).toBe(204);
    const read = await client.get("/collections/articles/entries/dangling");
    expect(read.status, read.text).toBe(200);
    expect(read.body.author ?? null).toBeNull();
    expect(read.body.coauthors.map((entry: any) => entry.id)).toEqual([jane.id]);
    const list = await client.get("/collections/articles/entries?handle=dangling");
    expect(list.status, list.text).toBe(200);
  });
});
