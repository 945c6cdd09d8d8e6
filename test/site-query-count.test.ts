// What a site entry page costs in SQL statements with the answer cache off (READ_CACHE_MB=0): its entry,
// the entries its data references and the entries its menus link to, each read per page since their
// visibility may change with any write of content; everything else a page reads (the account, its
// templates, forms, blueprints, collections, globals, navigations and feeds) is kept as lookups of their
// tables (src/schema/account-lookups.ts), which writes of entries do not end. The server counts each
// request's statements when CMS_COUNT_QUERIES=1 (X-Query-Count); it then keeps no answers, only lookups.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { saveThemeFolder, siteGet } from "./helpers/site.ts";

const themeDir = new URL("./fixtures/blog-theme/", import.meta.url);
const kinds: Record<string, string> = { theme: "layout", byline: "partial" };

const counting = { CMS_COUNT_QUERIES: "1", READ_CACHE_MB: "0" };
let server: TestServer;
let account: TestAccount;
let client: Api;

beforeAll(async () => {
  server = await startServer(counting);
  account = await createAccount(server, "Counted");
  client = api(server, account);
  // The bench's site (bench/seed.ts): the blog theme, posts with an author, a footer global and a menu.
  await saveThemeFolder(client, themeDir, kinds);
  await expectCreated(
    client.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: ":handle",
      root_routing: true,
      template_handle: "page",
      blueprint: { fields: [{ handle: "body", type: "rich_text" }] },
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "post",
      routing: "blog/:handle",
      template_handle: "post",
      schema_type: "BlogPosting",
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "author", type: "entity", options: { collection: "pages" } },
        ],
      },
    }),
  );
  await expectCreated(client.post("/collections/pages/entries", { handle: "index", title: "Home" }));
  await expectCreated(client.post("/collections/pages/entries", { handle: "jane", title: "Jane Doe" }));
  await expectCreated(
    client.post("/collections/post/entries", {
      handle: "p1",
      title: "Post 1",
      body: "<p>Body 1</p>",
      author: "jane",
    }),
  );
  await expectCreated(
    client.post("/globals", {
      name: "Footer",
      handle: "footer",
      fields: [{ handle: "copyright", type: "text" }],
      copyright: "(c) Counted",
    }),
  );
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  const first = await expectCreated(
    client.post("/navigations/main/items", {
      title: "First post",
      collection_handle: "post",
      entry_handle: "p1",
    }),
  );
  await expectCreated(
    client.post("/navigations/main/items", { title: "Docs", url: "https://docs.test/", parent_id: first.id }),
  );
  await expectCreated(
    client.post("/navigations/main/items", {
      title: "Home",
      collection_handle: "pages",
      entry_handle: "index",
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The page's statements, after checking it shows its entry, author, menu and footer. */
async function countedPage(target: TestServer = server): Promise<number> {
  const response = await siteGet(target, "/blog/p1", account.domain);
  expect(response.status, response.text).toBe(200);
  expect(response.text).toContain("<h1>Post 1</h1>");
  expect(response.text).toContain('<p class="author">Jane Doe</p>');
  expect(response.text).toContain(
    '<a href="/blog/p1">First post</a><a class="child" href="https://docs.test/">Docs</a><a href="/">Home</a>',
  );
  expect(response.text).toContain("<footer>(c) Counted · Footer</footer>");
  const count = Number(response.headers["x-query-count"]);
  expect(count, "X-Query-Count").toBeGreaterThan(0);
  return count;
}

describe("SQL statements of a site entry page (READ_CACHE_MB=0)", () => {
  // Besides the Host with its account's generations: read by every request on PostgreSQL, on SQLite by the
  // first after a commit (src/schema/generations.ts `keptIdentities`).
  const identity = usesPostgres ? 1 : 0;

  it("are three once the lookups are kept: the entry, its author, the entries its menu links to", async () => {
    await countedPage();
    expect(await countedPage()).toBe(3 + identity);
  });

  it("stay three after entries are written: a write of content ends none of the lookups", async () => {
    await expectCreated(client.post("/collections/post/entries", { handle: "p2", title: "Post 2" }));
    expect((await client.put("/collections/post/entries/p1", { body: "<p>Edited</p>" })).status).toBe(200);
    expect(await countedPage()).toBe(3 + 1);
    expect(await countedPage()).toBe(3 + identity);
  });

  it("read every lookup again with LOOKUP_CACHE_MB=0", async () => {
    const unkept = await server.twin({ ...counting, LOOKUP_CACHE_MB: "0" });
    try {
      await countedPage(unkept);
      expect(await countedPage(unkept)).toBeGreaterThan(3);
    } finally {
      await unkept.stop();
    }
  });
});
