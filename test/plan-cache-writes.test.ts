// Writes through shared query plans (src/db/plan-cache.ts): Prisma plans of creates and updates are
// compiled once per shape and then filled with each request's values. Many entries of one shape, with
// values that differ in every way a value can, must each read back as exactly what was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;

// A shape is shared from its third request on (plan-cache.ts): every entry here has the same shape.
const COUNT = 10;

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server));
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "posts/:handle",
      blueprint: {
        handle: "post",
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "rating", type: "number" },
          { handle: "tags", type: "list" },
          { handle: "meta", type: "dictionary" },
          { handle: "related", type: "entity", options: { collection: "anchors", multiple: true } },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Anchors",
      handle: "anchors",
      routing: "anchors/:handle",
      blueprint: { handle: "anchor", fields: [] },
    }),
  );
  for (const handle of ["anchor-a", "anchor-b"]) {
    await expectCreated(client.post("/collections/anchors/entries", { handle, title: handle }));
  }
});

afterAll(async () => {
  await server?.stop();
});

/** The i-th entry: every value differs from the others', in characters, numbers, dates and lengths. */
function entry(i: number) {
  return {
    handle: `post-${i}`,
    title: `"Quoted" \\ title ${i} \u2028 ü ${"🙂".repeat(i)} end`,
    published: true,
    published_at: new Date(Date.UTC(2020 + i, i, i + 1, i, i, i, i * 7)).toISOString(),
    position: 3,
    body: `<p>${"x".repeat(i * 50)}</p><script>"${i}"</script>`,
    rating: [0, -1.5, 1e21, 0.1, 2 ** 53, -0.000001, 42, 7][i % 8],
    tags: Array.from({ length: i }, (_, k) => `tag "${k}"`),
    meta: { [`key ${i}`]: `value\n${i}`, nested: `{"not": "json ${i}"}` },
    related: i % 2 === 0 ? ["anchor-a", "anchor-b"] : ["anchor-b", "anchor-a"],
  };
}

function expectSame(read: Record<string, any>, sent: ReturnType<typeof entry>) {
  expect(read.handle).toBe(sent.handle);
  expect(read.title).toBe(sent.title);
  expect(read.published).toBe(sent.published);
  expect(read.published_at).toBe(sent.published_at);
  expect(read.body).toBe(sent.body);
  expect(read.rating).toBe(sent.rating);
  expect(read.tags).toEqual(sent.tags);
  expect(read.meta).toEqual(sent.meta);
  expect((read.related as { handle: string }[]).map((related) => related.handle)).toEqual(sent.related);
}

describe("writes through shared plans", () => {
  it("creates many entries of one shape, each read back as sent", async () => {
    for (let i = 0; i < COUNT; i++) {
      const created = await expectCreated(client.post("/collections/posts/entries", entry(i)));
      expectSame(created, entry(i));
    }
    for (let i = 0; i < COUNT; i++) {
      const read = await client.get(`/collections/posts/entries/post-${i}`);
      expect(read.status, read.text).toBe(200);
      expectSame(read.body, entry(i));
    }
  });

  it("updates many entries with one shape of change, each read back as sent", async () => {
    for (let i = 0; i < COUNT; i++) {
      const change = { title: entry(COUNT - 1 - i).title, meta: entry(COUNT - 1 - i).meta };
      const updated = await client.patch(`/collections/posts/entries/post-${i}`, change);
      expect(updated.status, updated.text).toBe(200);
    }
    for (let i = 0; i < COUNT; i++) {
      const read = await client.get(`/collections/posts/entries/post-${i}`);
      expectSame(read.body, {
        ...entry(i),
        title: entry(COUNT - 1 - i).title,
        meta: entry(COUNT - 1 - i).meta,
      });
    }
  });
});
