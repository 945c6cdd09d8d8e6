// Where and in which order the public site shows entries: site order with its `orderable` tiebreak and
// entries without published_at (last on both databases), and the routing shapes (dates, parent fields,
// routing_override), on the embedded database and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
const page = (path: string) => siteGet(server, path, account.domain);

const templates: { handle: string; kind: string; html: string }[] = [
  {
    handle: "theme",
    kind: "layout",
    html: "<head>{{ content_for_header }}</head><main>{{ content_for_layout }}</main>",
  },
  { handle: "index", kind: "template", html: '<h1>{{ title }}</h1><p class="path">{{ current_path }}</p>' },
  {
    handle: "list",
    kind: "template",
    html: '<p class="order">{% for e in entries %}{{ e.handle }} {% endfor %}</p>',
  },
  {
    handle: "queries",
    kind: "template",
    html:
      '{% query collection: "news", order_by: "published_at", order_dir: "asc" %}<p class="asc">{% for e in query.entries %}{{ e.handle }} {% endfor %}</p>{% endquery %}' +
      '{% query collection: "news", order_by: "published_at", order_dir: "desc" %}<p class="desc">{% for e in query.entries %}{{ e.handle }} {% endfor %}</p>{% endquery %}',
  },
  {
    handle: "menu",
    kind: "template",
    html: '<p class="menu">{% for item in navigation.main %}[{{ item.title }}|{{ item.url }}|{% for c in item.children %}{{ c.title }}:{{ c.url }}{% endfor %}]{% endfor %}</p>',
  },
];

async function collection(body: Record<string, unknown>) {
  return expectCreated(client.post("/collections", { blueprint: { fields: [] }, ...body }));
}

async function entry(collectionHandle: string, body: Record<string, unknown>) {
  return expectCreated(client.post(`/collections/${collectionHandle}/entries`, body));
}

function graphql(query: string, variables: Record<string, unknown> = {}) {
  return client.raw("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
}

/** The handles a `<p class="…">` of the page lists, in order. */
async function listed(path: string, cls = "order"): Promise<string[]> {
  const response = await page(path);
  expect(response.status, response.text).toBe(200);
  const match = response.text.match(new RegExp(`<p class="${cls}">(.*?)</p>`));
  expect(match, response.text).not.toBeNull();
  return (match?.[1] ?? "").split(" ").filter(Boolean);
}

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Routing");
  client = api(server, account);
  for (const template of templates)
    await expectCreated(client.post("/templates", { ...template, title: template.handle }));
  await collection({ name: "Pages", handle: "pages", routing: ":handle", root_routing: true });
  await entry("pages", { handle: "queries", title: "Queries", template_handle: "queries" });
  // News: newest first; one entry has no published_at.
  await collection({
    name: "News",
    handle: "news",
    routing: "news/:handle",
    index_routing: "news",
    index_template_handle: "list",
    orderable: "descending",
  });
  await entry("news", { handle: "undated", title: "Undated" });
  await entry("news", { handle: "old", title: "Old", published_at: "2024-01-01T00:00:00Z" });
  await entry("news", { handle: "new", title: "New", published_at: "2024-03-01T00:00:00Z" });
  // Archive: oldest first after position; a lower position beats any date.
  await collection({
    schema_type: "Blog",
    name: "Archive",
    handle: "archive",
    routing: "archive/:handle",
    index_routing: "archive",
    index_template_handle: "list",
    orderable: "ascending",
  });
  await entry("archive", { handle: "undated", title: "Undated", position: 1 });
  await entry("archive", {
    handle: "late",
    title: "Late",
    position: 1,
    published_at: "2024-03-01T00:00:00Z",
  });
  await entry("archive", {
    handle: "early",
    title: "Early",
    position: 1,
    published_at: "2024-01-01T00:00:00Z",
  });
  await entry("archive", { handle: "pinned", title: "Pinned", position: 0 });
});
afterAll(() => server?.stop());

describe("site order", () => {
  it("puts entries without published_at last on index pages, whichever way orderable sorts dates", async () => {
    expect(await listed("/news")).toEqual(["new", "old", "undated"]);
    expect(await listed("/archive")).toEqual(["pinned", "early", "late", "undated"]);
  });

  it("breaks equal positions by published_at as orderable says, a lower position first", async () => {
    await entry("archive", {
      handle: "middle",
      title: "Middle",
      position: 1,
      published_at: "2024-02-01T00:00:00Z",
    });
    expect(await listed("/archive")).toEqual(["pinned", "early", "middle", "late", "undated"]);
    expect((await client.delete("/collections/archive/entries/middle")).status).toBeLessThan(300);
  });

  it("puts entries without published_at last in the query tag's published_at order, both directions", async () => {
    expect(await listed("/queries", "asc")).toEqual(["old", "new", "undated"]);
    expect(await listed("/queries", "desc")).toEqual(["new", "old", "undated"]);
  });

  it("lists entries without published_at after the dated ones in RSS", async () => {
    const enable = await graphql(
      `mutation ($account: ID!) { collectionFeedUpdate(account_id: $account, id: "news", input: {
        feed_enabled: true, feed_path: "news/feed.xml" }) { feed_path } }`,
      { account: account.account_id },
    );
    expect(enable.body.errors, enable.text).toBeUndefined();
    const feed = await page("/news/feed.xml");
    expect(feed.status).toBe(200);
    const titles = [...feed.text.matchAll(/<item><title>(.*?)<\/title>/g)].map((match) => match[1]);
    expect(titles).toEqual(["New", "Old", "Undated"]);
  });
});

describe("navigation menus", () => {
  it("give an item linked to an unpublished entry url null and keep its children, never the entry's path", async () => {
    await entry("pages", { handle: "menu", title: "Menu", template_handle: "menu" });
    await entry("pages", { handle: "hidden-plans", title: "Hidden plans", published: false });
    await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
    await expectCreated(
      client.post("/navigations/main/items", {
        title: "News",
        collection_handle: "news",
        entry_handle: "new",
        priority: 1,
      }),
    );
    const soon = await expectCreated(
      client.post("/navigations/main/items", {
        title: "Soon",
        collection_handle: "pages",
        entry_handle: "hidden-plans",
        priority: 2,
      }),
    );
    await expectCreated(
      client.post("/navigations/main/items", { title: "Docs", url: "/docs", parent_id: soon.id }),
    );
    const response = await page("/menu");
    expect(response.status, response.text).toBe(200);
    expect(response.text).toContain('<p class="menu">[News|/news/new|][Soon||Docs:/docs]</p>');
    expect(response.text).not.toContain("hidden-plans");
    expect((await page("/hidden-plans")).status).toBe(404);
  });
});

describe("JSON-LD", () => {
  it("gives index pages the collection's schema_type, else WebPage, like its entry pages", async () => {
    const typeOf = async (path: string) => {
      const response = await page(path);
      expect(response.status, response.text).toBe(200);
      const json = response.text.match(/<script type="application\/ld\+json">(.*?)<\/script>/)?.[1];
      expect(json, response.text).toBeDefined();
      return JSON.parse(json ?? "{}")["@type"];
    };
    expect(await typeOf("/archive")).toBe("Blog");
    expect(await typeOf("/archive/early")).toBe("Blog");
    expect(await typeOf("/news")).toBe("WebPage");
    expect(await typeOf("/news/new")).toBe("WebPage");
  });
});

/** The page's `<h1>` and `current_path`, or its status when it is not a 200. */
async function shown(path: string): Promise<string | number> {
  const response = await page(path);
  if (response.status !== 200) return response.status;
  const title = response.text.match(/<h1>(.*?)<\/h1>/)?.[1];
  const current = response.text.match(/<p class="path">(.*?)<\/p>/)?.[1];
  return `${title} at ${current}`;
}

describe("routing shapes", () => {
  it("serves date routing at the UTC year and month of published_at, and moves with the date", async () => {
    await collection({ name: "Blog", handle: "blog", routing: "blog/:year/:month/:handle" });
    await entry("blog", { handle: "hello", title: "Hello", published_at: "2024-03-31T23:30:00Z" });
    expect(await shown("/blog/2024/03/hello")).toBe("Hello at /blog/2024/03/hello");
    expect(await shown("/blog/hello")).toBe(404);
    expect(await shown("/blog/2024/04/hello")).toBe(404);
    const moved = await client.put("/collections/blog/entries/hello", {
      published_at: "2025-01-02T00:00:00Z",
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.content_path).toBe("/blog/2025/01/hello");
    expect(await shown("/blog/2025/01/hello")).toBe("Hello at /blog/2025/01/hello");
    expect(await shown("/blog/2024/03/hello")).toBe(404);
  });

  it("serves :<field> routing under the parent's handle, and follows the parent when it is renamed", async () => {
    await collection({ name: "Books", handle: "books", routing: "books/:handle" });
    await collection({
      name: "Chapters",
      handle: "chapters",
      routing: "books/:book/:handle",
      blueprint: { fields: [{ handle: "book", type: "entity", options: { collection: "books" } }] },
    });
    await entry("books", { handle: "guide", title: "Guide" });
    await entry("chapters", { handle: "intro", title: "Intro", book: "guide" });
    expect(await shown("/books/guide")).toBe("Guide at /books/guide");
    expect(await shown("/books/guide/intro")).toBe("Intro at /books/guide/intro");
    expect(await shown("/books/intro")).toBe(404);
    const renamed = await client.put("/collections/books/entries/guide", { handle: "manual" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await shown("/books/manual/intro")).toBe("Intro at /books/manual/intro");
    expect(await shown("/books/guide/intro")).toBe(404);
  });

  it("serves an entry at its routing_override set over GraphQL, the old path a 404, until it is cleared", async () => {
    const pages = await client.get("/collections/pages");
    expect(pages.status, pages.text).toBe(200);
    const moving = await entry("pages", { handle: "moving", title: "Moving" });
    expect(await shown("/moving")).toBe("Moving at /moving");
    const override = (routing_override: string | null) =>
      graphql(
        `mutation ($account: ID!, $collection: ID!, $id: ID!, $input: EntryRoutingInput!) {
          entryRoutingUpdate(account_id: $account, collection_id: $collection, id: $id, input: $input) { content_path }
        }`,
        {
          account: account.account_id,
          collection: pages.body.id,
          id: moving.id,
          input: { routing_override },
        },
      );
    const set = await override("landing/spring");
    expect(set.body.errors, set.text).toBeUndefined();
    expect(set.body.data.entryRoutingUpdate.content_path).toBe("/landing/spring");
    expect(await shown("/landing/spring")).toBe("Moving at /landing/spring");
    expect(await shown("/moving")).toBe(404);
    const cleared = await override(null);
    expect(cleared.body.errors, cleared.text).toBeUndefined();
    expect(await shown("/moving")).toBe("Moving at /moving");
    expect(await shown("/landing/spring")).toBe(404);
  });
});
