// Public content queries for frontend apps over /graphql: published entries with filters on
// system and blueprint fields, sorting, page-number and cursor pagination, one entry by path or handle,
// globals, navigation trees, and entity references resolved in a constant number of SQL statements.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let readToken: string;
const ids: Record<string, string> = {};

function graphql(query: string, variables: Record<string, unknown> = {}, token = readToken) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables: { account: account.account_id, ...variables } }),
  });
}

function data(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

function expectRefused(response: ApiResponse, path: string, status = 422) {
  expect(response.status, response.text).toBe(status);
  const [error] = response.body.errors;
  expect(error.extensions.code, response.text).toBe(status === 422 ? "UNPROCESSABLE_ENTITY" : "BAD_REQUEST");
  expect(
    error.extensions.details.map((detail: { path: string }) => detail.path),
    response.text,
  ).toContain(path);
}

const listQuery = `query ($account: ID!, $filter: [ContentFilter!], $sort: [ContentSort!], $page: Int, $per_page: Int) {
  contentEntries(account_id: $account, collection: "posts", filter: $filter, sort: $sort, page: $page, per_page: $per_page) {
    data { handle title position published_at content_path collection_handle values }
    pagination { page per_page total total_pages next_page prev_page }
  }
}`;

const handles = async (filter: unknown[], sort?: unknown[]) => {
  const result = data(await graphql(listQuery, { filter, sort }));
  return result.contentEntries.data.map((entry: { handle: string }) => entry.handle);
};

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  client = api(server, account);
  const read = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  readToken = JSON.parse(read.stdout).token;
  const authors = await client.post("/collections", {
    name: "Authors",
    handle: "authors",
    routing: "authors/:handle",
    blueprint: { handle: "author", fields: [{ handle: "bio", type: "text" }] },
  });
  expect(authors.status, authors.text).toBe(201);
  const posts = await client.post("/collections", {
    name: "Posts",
    handle: "posts",
    routing: "blog/:handle",
    orderable: "descending",
    blueprint: {
      handle: "post",
      fields: [
        { handle: "body", type: "text" },
        { handle: "price", type: "number" },
        { handle: "featured", type: "toggle" },
        { handle: "category", type: "enumerate", options: { enumerations: ["news", "guides"] } },
        { handle: "author", type: "entity", options: { collection: "authors" } },
        { handle: "tags", type: "list" },
      ],
    },
  });
  expect(posts.status, posts.text).toBe(201);
  for (const [handle, published] of [
    ["ada", true],
    ["bob", true],
    ["hidden-author", false],
  ] as const) {
    const author = await client.post("/collections/authors/entries", {
      handle,
      title: handle,
      published,
      bio: `${handle} writes`,
    });
    expect(author.status, author.text).toBe(201);
    ids[handle] = author.body.id;
  }
  const rows = [
    {
      handle: "alpha",
      title: "Alpha News",
      price: 5,
      featured: true,
      category: "news",
      author: "ada",
      published_at: "2024-01-01T00:00:00Z",
    },
    {
      handle: "beta",
      title: "Beta guide",
      price: 15,
      featured: false,
      category: "guides",
      author: "bob",
      published_at: "2024-02-01T00:00:00Z",
    },
    {
      handle: "gamma",
      title: "Gamma news",
      price: 25.5,
      category: "news",
      author: "hidden-author",
      published_at: "2024-03-01T00:00:00Z",
    },
    {
      handle: "delta",
      title: "Delta",
      body: "no price here: 100% free_ish",
      published_at: "2024-04-01T00:00:00Z",
      position: 1,
    },
    { handle: "draft", title: "Draft news", price: 10, category: "news", published: false },
  ];
  for (const row of rows) {
    const created = await client.post("/collections/posts/entries", row);
    expect(created.status, created.text).toBe(201);
    ids[row.handle] = created.body.id;
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("contentEntries", () => {
  it("lists published entries in site order with values and entity fields expanded (published only)", async () => {
    const response = await graphql(listQuery);
    // Statements are counted only when CMS_COUNT_QUERIES=1 (graphql-query-count.test.ts).
    expect(response.headers.get("x-query-count")).toBeNull();
    const result = data(response).contentEntries;
    // position ascending, then orderable "descending": newest published_at first.
    expect(result.data.map((entry: { handle: string }) => entry.handle)).toEqual([
      "gamma",
      "beta",
      "alpha",
      "delta",
    ]);
    expect(result.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 4,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const beta = result.data[1];
    expect(beta).toMatchObject({
      title: "Beta guide",
      content_path: "/blog/beta",
      collection_handle: "posts",
      published_at: "2024-02-01T00:00:00.000Z",
    });
    expect(beta.values).toMatchObject({ price: 15, featured: false, category: "guides" });
    expect(beta.values.author).toMatchObject({
      id: ids.bob,
      handle: "bob",
      title: "bob",
      bio: "bob writes",
      content_path: "/authors/bob",
    });
    // An unpublished author is not exposed to frontends.
    expect(result.data[0].values.author).toBeNull();
  });

  it("filters on system fields", async () => {
    expect(await handles([{ field: "handle", eq: "beta" }])).toEqual(["beta"]);
    expect(await handles([{ field: "handle", ne: "beta" }])).toEqual(["gamma", "alpha", "delta"]);
    expect(await handles([{ field: "handle", in: ["alpha", "delta", "draft"] }])).toEqual(["alpha", "delta"]);
    expect(await handles([{ field: "title", contains: "NEWS" }])).toEqual(["gamma", "alpha"]);
    expect(await handles([{ field: "title", starts_with: "al" }])).toEqual(["alpha"]);
    expect(await handles([{ field: "content_path", starts_with: "/blog/g" }])).toEqual(["gamma"]);
    expect(await handles([{ field: "handle", ends_with: "TA" }])).toEqual(["beta", "delta"]);
    expect(await handles([{ field: "position", gt: 0 }])).toEqual(["delta"]);
    expect(await handles([{ field: "published_at", gte: "2024-02-01", lt: "2024-04-01T00:00:00Z" }])).toEqual(
      ["gamma", "beta"],
    );
    expect(
      await handles([{ field: "created_at", lte: new Date(Date.now() + 60_000).toISOString() }]),
    ).toHaveLength(4);
    expect(await handles([{ field: "updated_at", gt: "2999-01-01" }])).toEqual([]);
  });

  it("filters on blueprint values", async () => {
    expect(await handles([{ field: "category", eq: "news" }])).toEqual(["gamma", "alpha"]);
    expect(await handles([{ field: "category", ne: "news" }])).toEqual(["beta", "delta"]);
    expect(await handles([{ field: "category", in: ["guides", "other"] }])).toEqual(["beta"]);
    expect(await handles([{ field: "price", eq: 15 }])).toEqual(["beta"]);
    expect(await handles([{ field: "price", gt: 5 }])).toEqual(["gamma", "beta"]);
    expect(await handles([{ field: "price", gte: 5, lt: 25.5 }])).toEqual(["beta", "alpha"]);
    expect(await handles([{ field: "price", lte: 15 }])).toEqual(["beta", "alpha"]);
    expect(await handles([{ field: "featured", eq: true }])).toEqual(["alpha"]);
    expect(await handles([{ field: "body", contains: "PRICE" }])).toEqual(["delta"]);
    expect(await handles([{ field: "body", starts_with: "no " }])).toEqual(["delta"]);
    expect(await handles([{ field: "category", ends_with: "EWS" }])).toEqual(["gamma", "alpha"]);
    // LIKE wildcards are plain characters.
    expect(await handles([{ field: "title", contains: "_" }])).toEqual([]);
    expect(await handles([{ field: "title", starts_with: "%" }])).toEqual([]);
    expect(await handles([{ field: "title", ends_with: "%" }])).toEqual([]);
    expect(await handles([{ field: "body", contains: "0% FREE_" }])).toEqual(["delta"]);
    expect(await handles([{ field: "body", ends_with: "FREE_ISH" }])).toEqual(["delta"]);
    expect(await handles([{ field: "body", contains: "%%" }])).toEqual([]);
    expect(await handles([{ field: "body", contains: "no_price" }])).toEqual([]);
    expect(await handles([{ field: "body", contains: "O PRICE" }])).toEqual(["delta"]);
    expect(
      await handles([
        { field: "title", contains: "a_n" },
        { field: "title", starts_with: "ALPHA" },
      ]),
    ).toEqual([]);
    expect(await handles([{ field: "author", eq: ids.ada }])).toEqual(["alpha"]);
    expect(await handles([{ field: "author", in: [ids.ada, ids.bob] }])).toEqual(["beta", "alpha"]);
    expect(await handles([{ field: "author", ne: ids.ada }])).toEqual(["gamma", "beta", "delta"]);
    expect(
      await handles([
        { field: "category", eq: "news" },
        { field: "price", lt: 10 },
      ]),
    ).toEqual(["alpha"]);
  });

  it("sorts on system fields", async () => {
    expect(await handles([], [{ field: "title", direction: "asc" }])).toEqual([
      "alpha",
      "beta",
      "delta",
      "gamma",
    ]);
    expect(await handles([], [{ field: "published_at", direction: "desc" }])).toEqual([
      "delta",
      "gamma",
      "beta",
      "alpha",
    ]);
    expect(await handles([], [{ field: "position", direction: "desc" }, { field: "handle" }])).toEqual([
      "delta",
      "alpha",
      "beta",
      "gamma",
    ]);
  });

  it("pages by number", async () => {
    const page = (n: number) => graphql(listQuery, { page: n, per_page: 3, sort: [{ field: "handle" }] });
    const second = data(await page(2)).contentEntries;
    expect(second.data.map((entry: { handle: string }) => entry.handle)).toEqual(["gamma"]);
    expect(second.pagination).toEqual({
      page: 2,
      per_page: 3,
      total: 4,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });
    expectRefused(await graphql(listQuery, { per_page: 101 }), "per_page");
  });

  it("answers bad filters and sorts with a 422 naming the input, never a 500", async () => {
    expectRefused(await graphql(listQuery, { filter: [{ field: "nope", eq: 1 }] }), "filter[0].field");
    expectRefused(await graphql(listQuery, { filter: [{ field: "price", eq: "cheap" }] }), "filter[0].eq");
    expectRefused(
      await graphql(listQuery, { filter: [{ field: "price", contains: "1" }] }),
      "filter[0].contains",
    );
    expectRefused(await graphql(listQuery, { filter: [{ field: "category", lt: "z" }] }), "filter[0].lt");
    expectRefused(await graphql(listQuery, { filter: [{ field: "tags", eq: "x" }] }), "filter[0].eq");
    expectRefused(
      await graphql(listQuery, { filter: [{ field: "published_at", gt: "yesterday" }] }),
      "filter[0].gt",
    );
    expectRefused(await graphql(listQuery, { filter: [{ field: "position", eq: 1.5 }] }), "filter[0].eq");
    expectRefused(await graphql(listQuery, { filter: [{ field: "handle" }] }), "filter[0]");
    expectRefused(await graphql(listQuery, { sort: [{ field: "price" }] }), "sort[0].field");
    const wrongShape = await graphql(listQuery, { filter: [{ field: "handle", eq: "a", bogus: 1 }] });
    expect([400, 422], wrongShape.text).toContain(wrongShape.status);
  });

  it("never answers odd filter values with a 500", async () => {
    const odd = [null, {}, [], [null], "", "\u0000", 1e308, -0.5, true, "2024-02-30", "x".repeat(5000)];
    const fields = [
      "handle",
      "position",
      "published_at",
      "id",
      "price",
      "featured",
      "category",
      "author",
      "body",
    ];
    const ops = ["eq", "ne", "in", "contains", "starts_with", "lt", "gte"];
    // One request a field and value, each operator an alias.
    const query = `query ($account: ID!, ${ops.map((op) => `$${op}: [ContentFilter!]`).join(", ")}) {
      ${ops.map((op) => `${op}: contentEntries(account_id: $account, collection: "posts", filter: $${op}) { data { handle } }`).join("\n")}
    }`;
    for (const field of fields) {
      for (const value of odd) {
        const filters = Object.fromEntries(ops.map((op) => [op, [{ field, [op]: value }]]));
        const response = await graphql(query, filters);
        const label = `${field} ${JSON.stringify(value)?.slice(0, 40)}: ${response.text.slice(0, 500)}`;
        expect(response.status, label).not.toBe(500);
        for (const error of response.body.errors ?? []) {
          // Variable coercion errors (a request error, 400) carry no code; the rest are ours.
          expect([undefined, "BAD_REQUEST", "UNPROCESSABLE_ENTITY"], label).toContain(error.extensions?.code);
          expect(error.message, label).not.toBe("Unexpected error.");
        }
      }
    }
  }, 60_000);

  it("needs a token for the account; a read token is enough", async () => {
    const other = await createAccount(server, "Other");
    const foreign = await graphql(listQuery, {}, other.token);
    expect(foreign.status, foreign.text).toBe(403);
    expect(foreign.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const anonymous = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: listQuery, variables: { account: account.account_id } }),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("contentEntriesConnection", () => {
  const connection = `query ($account: ID!, $first: Int, $after: String, $sort: [ContentSort!], $filter: [ContentFilter!]) {
    contentEntriesConnection(account_id: $account, collection: "posts", first: $first, after: $after, sort: $sort, filter: $filter) {
      edges { cursor node { handle values } }
      page_info { has_next_page has_previous_page start_cursor end_cursor }
      total
    }
  }`;

  it("walks the list with opaque cursors in any order, nulls last", async () => {
    for (const sort of [
      undefined,
      [{ field: "published_at", direction: "asc" }],
      [{ field: "title", direction: "desc" }],
    ]) {
      const expected = await handles([], sort);
      const seen: string[] = [];
      let after: string | null = null;
      for (let round = 0; round < 10; round++) {
        const page: any = data(await graphql(connection, { first: 1, after, sort })).contentEntriesConnection;
        seen.push(...page.edges.map((edge: { node: { handle: string } }) => edge.node.handle));
        expect(page.total).toBe(4);
        expect(page.page_info.has_previous_page).toBe(after !== null);
        after = page.page_info.end_cursor;
        if (!page.page_info.has_next_page) break;
      }
      expect(seen, JSON.stringify(sort)).toEqual(expected);
    }
  });

  it("pages filtered lists and refuses foreign or broken cursors", async () => {
    const filter = [{ field: "category", eq: "news" }];
    const first = data(await graphql(connection, { first: 1, filter })).contentEntriesConnection;
    expect(first.edges.map((edge: { node: { handle: string } }) => edge.node.handle)).toEqual(["gamma"]);
    const rest = data(
      await graphql(connection, { first: 5, filter, after: first.page_info.end_cursor }),
    ).contentEntriesConnection;
    expect(rest.edges.map((edge: { node: { handle: string } }) => edge.node.handle)).toEqual(["alpha"]);
    expect(rest.page_info.has_next_page).toBe(false);
    expectRefused(await graphql(connection, { after: "not-a-cursor" }), "after");
    expectRefused(
      await graphql(connection, { after: first.page_info.end_cursor, sort: [{ field: "title" }] }),
      "after",
    );
    expectRefused(await graphql(connection, { first: 0 }), "first");
  });
});

describe("contentEntry", () => {
  const entryQuery = `query ($account: ID!, $path: String, $collection: ID, $handle: String) {
    contentEntry(account_id: $account, path: $path, collection: $collection, handle: $handle) { handle title values }
  }`;

  it("finds a published entry by path or by collection and handle, else null", async () => {
    expect(data(await graphql(entryQuery, { path: "/blog/alpha" })).contentEntry).toMatchObject({
      handle: "alpha",
      values: { author: { handle: "ada" } },
    });
    expect(data(await graphql(entryQuery, { collection: "posts", handle: "beta" })).contentEntry.title).toBe(
      "Beta guide",
    );
    expect(data(await graphql(entryQuery, { path: "/blog/draft" })).contentEntry).toBeNull();
    expect(data(await graphql(entryQuery, { collection: "posts", handle: "nope" })).contentEntry).toBeNull();
    // contentEntry may be null, so the answer has data: a 200 in every media type (GraphQL over HTTP).
    const unnamed = await graphql(entryQuery, { collection: "posts" });
    expect(unnamed.status, unnamed.text).toBe(200);
    expect(unnamed.body.data).toEqual({ contentEntry: null });
    expect(unnamed.body.errors[0].extensions).toMatchObject({
      code: "UNPROCESSABLE_ENTITY",
      details: [expect.objectContaining({ path: "handle" })],
    });
  });
});

describe("globals and navigations", () => {
  it("reads globals with entity fields expanded", async () => {
    const global = await client.post("/globals", {
      name: "Site",
      handle: "site",
      fields: [
        { handle: "tagline", type: "text" },
        { handle: "editor", type: "entity", options: { collection: "authors" } },
      ],
      tagline: "Hello",
      editor: "ada",
    });
    expect(global.status, global.text).toBe(201);
    const query = `query ($account: ID!) {
      contentGlobals(account_id: $account) { handle name values }
      contentGlobal(account_id: $account, handle: "site") { handle values }
      missing: contentGlobal(account_id: $account, handle: "nope") { handle }
    }`;
    const result = data(await graphql(query));
    expect(result.contentGlobals).toEqual([
      {
        handle: "site",
        name: "Site",
        values: { tagline: "Hello", editor: expect.objectContaining({ handle: "ada" }) },
      },
    ]);
    expect(result.contentGlobal.values.tagline).toBe("Hello");
    expect(result.missing).toBeNull();
  });

  it("reads navigations as trees whose linked items follow their entry's path", async () => {
    const nav = await client.post("/navigations", { title: "Main", handle: "main" });
    expect(nav.status, nav.text).toBe(201);
    const home = await client.post("/navigations/main/items", { title: "Home", url: "/", priority: 1 });
    const blog = await client.post("/navigations/main/items", { title: "Blog", url: "/blog", priority: 2 });
    await client.post("/navigations/main/items", {
      title: "Alpha",
      collection_handle: "posts",
      entry_handle: "alpha",
      parent_id: blog.body.id,
    });
    expect(home.status, home.text).toBe(201);
    const moved = await client.put("/collections/posts/entries/alpha", { handle: "alpha-2" });
    expect(moved.status, moved.text).toBe(200);
    const query = `query ($account: ID!) {
      contentNavigation(account_id: $account, handle: "main") {
        handle title items { title url priority entry { handle content_path } children { title url entry { handle } children { title } } }
      }
      contentNavigations(account_id: $account) { handle }
    }`;
    const result = data(await graphql(query));
    expect(result.contentNavigation).toEqual({
      handle: "main",
      title: "Main",
      items: [
        { title: "Home", url: "/", priority: 1, entry: null, children: [] },
        {
          title: "Blog",
          url: "/blog",
          priority: 2,
          entry: null,
          children: [{ title: "Alpha", url: "/blog/alpha-2", entry: { handle: "alpha-2" }, children: [] }],
        },
      ],
    });
    expect(result.contentNavigations).toEqual([{ handle: "main" }]);
    const renamed = await client.put("/collections/posts/entries/alpha-2", { handle: "alpha" });
    expect(renamed.status, renamed.text).toBe(200);
  });

  it("never reveals an unpublished linked entry: its item has url null and no entry; REST still shows the link", async () => {
    const nav = await client.post("/navigations", { title: "Drafts", handle: "drafts" });
    expect(nav.status, nav.text).toBe(201);
    const soon = await client.post("/navigations/drafts/items", {
      title: "Soon",
      collection_handle: "posts",
      entry_handle: "draft",
    });
    expect(soon.status, soon.text).toBe(201);
    const child = await client.post("/navigations/drafts/items", {
      title: "Docs",
      url: "/docs",
      parent_id: soon.body.id,
    });
    expect(child.status, child.text).toBe(201);
    const result = data(
      await graphql(`query ($account: ID!) {
        contentNavigation(account_id: $account, handle: "drafts") { items { title url entry { id handle title content_path } children { title url } } }
        contentNavigations(account_id: $account) { handle items { url entry { handle } } }
      }`),
    );
    expect(result.contentNavigation.items).toEqual([
      { title: "Soon", url: null, entry: null, children: [{ title: "Docs", url: "/docs" }] },
    ]);
    expect(JSON.stringify(result)).not.toMatch(/Draft news|"draft"|\/draft/);
    const admin = await client.get(`/navigations/drafts/items/${soon.body.id}`);
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body.entity).toMatchObject({ handle: "draft", title: "Draft news" });
    expect((await client.delete("/navigations/drafts")).status).toBe(204);
  });
});
