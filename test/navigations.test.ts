// Navigations and their items over REST (content-api.md "Navigation and navigation item", "Endpoints >
// Navigations / Navigation items" with rules 1-5, "Errors", "Limits"; decisions.md "REST decisions").
// Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { readOnlyApi } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own navigation handles. */
let client: Api;
/** A second account, for isolation. */
let other: Api;
/** Only the navigations of the list tests. */
let paged: Api;

const NAV_ID = /^nav_[0-9a-z]{26}$/;
const ITEM_ID = /^ni_[0-9a-z]{26}$/;
const PAGED_COUNT = 23;
const pad = (n: number) => String(n).padStart(2, "0");

/** A navigation as lists and writes return it: no `items`. */
function navigationShape(handle: string, title: string, itemsCount = 0) {
  return {
    id: expect.stringMatching(NAV_ID),
    handle,
    title,
    items_count: itemsCount,
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
  };
}

/** An item as the /items endpoints return it, unlinked and without children. */
function itemShape(title: string, extra: Record<string, unknown> = {}) {
  return {
    id: expect.stringMatching(ITEM_ID),
    title,
    url: null,
    priority: 0,
    parent_id: null,
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
    ...extra,
  };
}

async function createNavigation(handle: string, title = handle, as: Api = client) {
  return (await expectCreated(as.post("/navigations", { title, handle }))) as { id: string; handle: string };
}

async function addItem(navigation: string, body: Record<string, unknown>, status = 201) {
  const response = await client.post(`/navigations/${navigation}/items`, body);
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** Titles of a tree, for order assertions: [title, [children...]] or title when it has none. */
function titles(items: { title: string; children?: unknown[] }[]): unknown[] {
  return items.map((item) => (item.children ? [item.title, titles(item.children as never[])] : item.title));
}

beforeAll(async () => {
  server = await startServer();
  const [main, second, third] = await Promise.all([
    createAccount(server, "Main"),
    createAccount(server, "Other"),
    createAccount(server, "Paged"),
  ]);
  client = api(server, main);
  other = api(server, second);
  paged = api(server, third);
  const pages = await client.post("/collections", {
    name: "Pages",
    handle: "pages",
    routing: "pages/:handle",
    blueprint: { fields: [{ handle: "body", type: "text" }] },
  });
  expect(pages.status, pages.text).toBe(201);
  const posts = await client.post("/collections", {
    name: "Posts",
    handle: "posts",
    routing: "blog/:handle",
    blueprint: { fields: [{ handle: "body", type: "text" }] },
  });
  expect(posts.status, posts.text).toBe(201);
  for (const [collection, handle, title] of [
    ["pages", "about", "About us"],
    ["pages", "contact", "Contact"],
    ["posts", "about", "About the blog"],
    ["posts", "hello", "Hello"],
  ] as const) {
    const entry = await client.post(`/collections/${collection}/entries`, { handle, title });
    expect(entry.status, entry.text).toBe(201);
  }
  // Titles sort differently from handles and from creation order.
  const order = Array.from({ length: PAGED_COUNT }, (_, i) => ((i * 7) % PAGED_COUNT) + 1);
  for (const n of order) await createNavigation(`m-${pad(PAGED_COUNT + 1 - n)}`, `Menu ${pad(n)}`, paged);
});
afterAll(() => server?.stop());

describe("navigations", () => {
  it("creates from title and handle: 201 with every response field and no items", async () => {
    const created = await client.post("/navigations", { title: "Main menu", handle: "main-menu" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(navigationShape("main-menu", "Main menu"));
    expect(created.body).not.toHaveProperty("items");
    expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it("reads one navigation by ID and by handle, with the item tree in items", async () => {
    const created = await createNavigation("footer", "Footer");
    const byId = await client.get(`/navigations/${created.id}`);
    const byHandle = await client.get("/navigations/footer");
    expect(byId.status).toBe(200);
    expect(byHandle.status).toBe(200);
    expect(byId.body).toEqual({ ...created, items: [] });
    expect(byHandle.body).toEqual(byId.body);
  });

  it("answers 404 for an unknown ID or handle", async () => {
    expectError(await client.get("/navigations/nav_doesnotexist"), 404);
    expectError(await client.get("/navigations/no-such-menu"), 404);
  });

  it("POST with an existing handle updates it: 200, the same ID, no items", async () => {
    const first = await createNavigation("sidebar", "Sidebar");
    await addItem("sidebar", { title: "Home", url: "/" });
    const again = await client.post("/navigations", { title: "Side bar", handle: "sidebar" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...navigationShape("sidebar", "Side bar", 1), id: first.id });
    expect(Date.parse(again.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(again.body.created_at));
    const list = await client.get("/navigations?handle=sidebar");
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data).toEqual([again.body]);
  });

  it("ends concurrent POSTs of one new handle as one navigation: one 201, the others 200", async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.post("/navigations", { title: `Race ${i}`, handle: "race" }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect((await client.get("/navigations?handle=race")).body.pagination.total).toBe(1);
  });

  it("lists 20 a page, sorted by title, without items, in the list envelope", async () => {
    const page1 = await paged.get("/navigations");
    expect(page1.status).toBe(200);
    expect(Object.keys(page1.body).sort()).toEqual(["data", "pagination"]);
    expect(page1.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(page1.body.data.map((n: { title: string }) => n.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Menu ${pad(i + 1)}`),
    );
    expect(page1.body.data[0]).toEqual(navigationShape(`m-${pad(PAGED_COUNT)}`, "Menu 01"));
    for (const navigation of page1.body.data) expect(navigation).not.toHaveProperty("items");
    const page2 = await paged.get("/navigations?page=2");
    expect(page2.body.data.map((n: { title: string }) => n.title)).toEqual(["Menu 21", "Menu 22", "Menu 23"]);
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });
    const past = await paged.get("/navigations?page=3");
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({ page: 3, next_page: null, prev_page: 2 });
    expect422(await paged.get("/navigations?page=0"), "page");
  });

  it("filters the list by exact handle", async () => {
    const one = await paged.get("/navigations?handle=m-05");
    expect(one.body.data).toEqual([navigationShape("m-05", "Menu 19")]);
    expect(one.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const none = await paged.get("/navigations?handle=m-0");
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it("PUT and PATCH change only the fields sent and answer without items", async () => {
    const created = await createNavigation("header", "Header");
    await addItem("header", { title: "Docs", url: "/docs" });
    const patched = await client.patch("/navigations/header", { title: "Top bar" });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...navigationShape("header", "Top bar", 1), id: created.id });
    const put = await client.put(`/navigations/${created.id}`, { handle: "top-bar" });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...navigationShape("top-bar", "Top bar", 1), id: created.id });
    expectError(await client.get("/navigations/header"), 404);
    const read = await client.get("/navigations/top-bar");
    expect(read.body).toEqual({
      ...put.body,
      updated_at: expect.stringMatching(ISO),
      items: [
        {
          id: expect.stringMatching(ITEM_ID),
          title: "Docs",
          url: "/docs",
          priority: 0,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ],
    });
    // Keys that are not fields are ignored.
    const ignored = await client.patch("/navigations/top-bar", { items_count: 9, items: [], id: "nav_x" });
    expect(ignored.status).toBe(200);
    expect(ignored.body).toEqual({ ...put.body, updated_at: expect.stringMatching(ISO) });
  });

  it("refuses a handle another navigation has (422 handle) and invalid fields", async () => {
    await createNavigation("taken");
    await createNavigation("mine");
    expect422(await client.patch("/navigations/mine", { handle: "taken" }), "handle");
    expect422(await client.post("/navigations", { handle: "no-title" }), "title");
    expect422(await client.post("/navigations", { title: "No handle" }), "handle");
    expect422(await client.post("/navigations", {}), "title", "handle");
    expect422(await client.post("/navigations", { title: " ", handle: "blank" }), "title");
    expect422(await client.post("/navigations", { title: "Bad", handle: "Not A Handle" }), "handle");
    expect422(
      await client.post("/navigations", { title: "Bad", handle: "nav_01m86qk4y29vy2ej45c6gzafpx" }),
      "handle",
    );
    expect422(await client.post("/navigations", { title: 5, handle: "typed" }), "title");
    expect422(await client.put("/navigations/mine", { title: "" }), "title");
    expectError(await client.put("/navigations/ghost", { title: "x" }), 404);
    expectError(await client.patch("/navigations/nav_ghost", { title: "x" }), 404);
  });

  it("DELETE answers 204 with an empty body and deletes the items; a second delete is 404", async () => {
    const navigation = await createNavigation("doomed");
    const parent = await addItem("doomed", { title: "Parent", url: "/p" });
    const child = await addItem("doomed", { title: "Child", url: "/c", parent_id: parent.id });
    const deleted = await client.delete(`/navigations/${navigation.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get(`/navigations/${navigation.id}`), 404);
    expectError(await client.get("/navigations/doomed/items"), 404);
    expectError(await client.delete("/navigations/doomed"), 404);
    // A new navigation with the same handle starts empty: the items did not survive.
    const again = await client.post("/navigations", { title: "Again", handle: "doomed" });
    expect(again.status).toBe(201);
    expect(again.body.items_count).toBe(0);
    expect((await client.get("/navigations/doomed")).body.items).toEqual([]);
    expectError(await client.get(`/navigations/doomed/items/${parent.id}`), 404);
    expectError(await client.get(`/navigations/doomed/items/${child.id}`), 404);
  });

  it("keeps navigations to their account: 403 with another account's token, 404 by the other's path", async () => {
    const mine = await createNavigation("private-menu");
    expectError(await other.raw(`/v1/accounts/${client.account.account_id}/navigations`), 403);
    expectError(await other.raw(`/v1/accounts/${client.account.account_id}/navigations/${mine.id}`), 403);
    expectError(
      await other.raw(`/v1/accounts/${client.account.account_id}/navigations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Intruder", handle: "intruder" }),
      }),
      403,
    );
    expectError(
      await other.raw(`/v1/accounts/${client.account.account_id}/navigations/${mine.id}`, {
        method: "DELETE",
      }),
      403,
    );
    expectError(await other.get(`/navigations/${mine.id}`), 404);
    expectError(await other.get("/navigations/private-menu"), 404);
    expectError(await other.patch(`/navigations/${mine.id}`, { title: "Mine now" }), 404);
    expectError(await other.delete(`/navigations/${mine.id}`), 404);
    expect((await other.get("/navigations?handle=private-menu")).body.data).toEqual([]);
    // The same handle is free in the other account.
    const theirs = await createNavigation("private-menu", "Theirs", other);
    expect(theirs.id).not.toBe(mine.id);
    expect((await client.get("/navigations/private-menu")).body.title).toBe("private-menu");
  });

  it("needs a write token to write", async () => {
    const reader = await readOnlyApi(server, client.account);
    await createNavigation("read-only");
    expect((await reader.get("/navigations/read-only")).status).toBe(200);
    expect((await reader.get("/navigations/read-only/items")).status).toBe(200);
    expectError(await reader.post("/navigations", { title: "No", handle: "no" }), 403);
    expectError(await reader.post("/navigations/read-only/items", { title: "No" }), 403);
    expectError(await reader.delete("/navigations/read-only"), 403);
  });
});

describe("items: create and read", () => {
  it("creates an item: 201 with id, title, url, priority, parent_id, timestamps; no entity, no children", async () => {
    const navigation = await createNavigation("shape");
    const created = await client.post("/navigations/shape/items", { title: "Home", url: "/" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(itemShape("Home", { url: "/" }));
    const read = await client.get(`/navigations/${navigation.id}/items/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect((await client.get("/navigations/shape")).body.items_count).toBe(1);
  });

  it("puts an item without priority after its existing siblings (max + 1, or 0)", async () => {
    await createNavigation("order");
    const first = await addItem("order", { title: "First", url: "/1" });
    const second = await addItem("order", { title: "Second", url: "/2" });
    const high = await addItem("order", { title: "High", url: "/h", priority: 10 });
    const low = await addItem("order", { title: "Low", url: "/l", priority: -5 });
    const after = await addItem("order", { title: "After", url: "/a" });
    const child = await addItem("order", { title: "Child", url: "/c", parent_id: first.id });
    const child2 = await addItem("order", { title: "Child 2", url: "/c2", parent_id: first.id });
    expect([first, second, high, low, after, child, child2].map((item) => item.priority)).toEqual([
      0, 1, 10, -5, 11, 0, 1,
    ]);
    const tree = await client.get("/navigations/order");
    expect(titles(tree.body.items)).toEqual([
      "Low",
      ["First", ["Child", "Child 2"]],
      "Second",
      "High",
      "After",
    ]);
  });

  it("sorts siblings by priority, equal priorities by creation", async () => {
    await createNavigation("ties");
    for (const [title, priority] of [
      ["C", 1],
      ["A", 2],
      ["B", 1],
      ["D", 0],
      ["E", 1],
    ] as const) {
      await addItem("ties", { title, url: `/${title}`, priority });
    }
    expect(titles((await client.get("/navigations/ties")).body.items)).toEqual(["D", "C", "B", "E", "A"]);
    expect(titles((await client.get("/navigations/ties/items")).body.data)).toEqual([
      "D",
      "C",
      "B",
      "E",
      "A",
    ]);
  });

  it("links an entry: url null, the entry's handles, entity {type, id, handle, title, url} with its content path", async () => {
    await createNavigation("linked");
    const about = (await client.get("/collections/pages/entries/about")).body;
    const created = await client.post("/navigations/linked/items", {
      title: "About",
      collection_handle: "pages",
      entry_handle: "about",
      url: "/ignored",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      itemShape("About", {
        collection_handle: "pages",
        entry_handle: "about",
        entity: {
          type: "CollectionEntry",
          id: about.id,
          handle: "about",
          title: "About us",
          url: "/pages/about",
        },
      }),
    );
    // The same entry handle in the other collection is another entry.
    const blog = await addItem("linked", {
      title: "About",
      collection_handle: "posts",
      entry_handle: "about",
    });
    expect(blog.entity).toMatchObject({ handle: "about", title: "About the blog", url: "/blog/about" });
    expect(blog.id).not.toBe(created.body.id);
    // IDs work as well as handles.
    const byIds = await addItem("linked", {
      title: "By IDs",
      collection_handle: about.collection_handle,
      entry_handle: about.id,
    });
    expect(byIds.entity.id).toBe(about.id);
    // The embedded tree has neither parent_id nor entity; a linked item's url is null there too, and it
    // names its entry as writes do.
    const tree = await client.get("/navigations/linked");
    expect(tree.body.items[0]).toEqual({
      id: created.body.id,
      title: "About",
      url: null,
      collection_handle: "pages",
      entry_handle: "about",
      priority: 0,
      created_at: created.body.created_at,
      updated_at: created.body.updated_at,
    });
  });

  it("ignores unknown references on create: no link, no parent", async () => {
    await createNavigation("lenient");
    const unknownEntry = await client.post("/navigations/lenient/items", {
      title: "Ghost",
      url: "/ghost",
      collection_handle: "pages",
      entry_handle: "nope",
    });
    expect(unknownEntry.status).toBe(201);
    expect(unknownEntry.body).toEqual(itemShape("Ghost", { url: "/ghost" }));
    const unknownCollection = await addItem("lenient", {
      title: "Nowhere",
      collection_handle: "nope",
      entry_handle: "about",
    });
    expect(unknownCollection).toEqual(itemShape("Nowhere", { priority: 1 }));
    const halfPair = await addItem("lenient", { title: "Half", entry_handle: "about" });
    expect(halfPair).toEqual(itemShape("Half", { priority: 2 }));
    const unknownParent = await addItem("lenient", { title: "Orphan", url: "/o", parent_id: "ni_nope" });
    expect(unknownParent).toEqual(itemShape("Orphan", { url: "/o", priority: 3 }));
    // A parent from another navigation is unknown here.
    await createNavigation("lenient-2");
    const elsewhere = await addItem("lenient-2", { title: "Elsewhere", url: "/e" });
    const crossed = await addItem("lenient", { title: "Crossed", url: "/x", parent_id: elsewhere.id });
    expect(crossed.parent_id).toBeNull();
  });

  it("embeds the whole tree in the single-navigation GET, children only where there are any", async () => {
    const navigation = await createNavigation("tree");
    const products = await addItem("tree", { title: "Products", url: "/products" });
    const software = await addItem("tree", { title: "Software", url: "/software", parent_id: products.id });
    const editor = await addItem("tree", { title: "Editor", url: "/editor", parent_id: software.id });
    const hardware = await addItem("tree", {
      title: "Hardware",
      url: "/hardware",
      parent_id: products.id,
      priority: -1,
    });
    const contact = await addItem("tree", {
      title: "Contact",
      collection_handle: "pages",
      entry_handle: "contact",
    });
    const read = await client.get(`/navigations/${navigation.id}`);
    expect(read.status).toBe(200);
    // A linked item names its entry as writes do (so the tree can be written back), never its entity.
    const node = (item: any, extra: Record<string, unknown> = {}) => ({
      id: item.id,
      title: item.title,
      url: item.url,
      priority: item.priority,
      created_at: item.created_at,
      updated_at: item.updated_at,
      ...extra,
    });
    expect(read.body).toEqual({
      ...navigationShape("tree", "tree", 5),
      id: navigation.id,
      items: [
        node(products, {
          children: [node(hardware), node(software, { children: [node(editor)] })],
        }),
        node(contact, { collection_handle: "pages", entry_handle: "contact" }),
      ],
    });
    expect(contact.url).toBeNull();
  });

  it("GET /items: top-level items with nested children, with parent_id and entity", async () => {
    await createNavigation("nested");
    const top = await addItem("nested", { title: "Top", url: "/top" });
    const mid = await addItem("nested", {
      title: "Mid",
      collection_handle: "posts",
      entry_handle: "hello",
      parent_id: top.id,
    });
    const leaf = await addItem("nested", { title: "Leaf", url: "/leaf", parent_id: mid.id });
    const alone = await addItem("nested", { title: "Alone", url: "/alone" });
    const list = await client.get("/navigations/nested/items");
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [
        {
          ...top,
          children: [
            {
              ...itemShape("Mid", {
                id: mid.id,
                parent_id: top.id,
                created_at: mid.created_at,
                updated_at: mid.updated_at,
              }),
              collection_handle: "posts",
              entry_handle: "hello",
              entity: {
                type: "CollectionEntry",
                id: expect.stringMatching(/^cnety_/),
                handle: "hello",
                title: "Hello",
                url: "/blog/hello",
              },
              children: [{ ...leaf }],
            },
          ],
        },
        alone,
      ],
      pagination: { page: 1, per_page: 20, total: 2, total_pages: 1, next_page: null, prev_page: null },
    });
    expect(leaf.parent_id).toBe(mid.id);
    // The single item carries its subtree too.
    const one = await client.get(`/navigations/nested/items/${top.id}`);
    expect(one.body).toEqual(list.body.data[0]);
    const flat = await client.get("/navigations/nested/items?all=true");
    expect(flat.body.data.map((item: { title: string }) => item.title)).toEqual([
      "Top",
      "Mid",
      "Leaf",
      "Alone",
    ]);
    for (const item of flat.body.data) expect(item).not.toHaveProperty("children");
    expect(flat.body.data[1]).toEqual({ ...list.body.data[0].children[0], children: undefined });
    expect(flat.body.pagination.total).toBe(4);
  });

  it("paginates top-level items 20 a page (children ride along), and the flat list over every item", async () => {
    await createNavigation("big");
    const tops = [];
    for (let i = 1; i <= 23; i++) tops.push(await addItem("big", { title: `T${pad(i)}`, url: `/t${i}` }));
    for (const parent of [tops[0], tops[21]]) {
      for (let i = 1; i <= 2; i++)
        await addItem("big", { title: `${parent.title}.${i}`, url: `/c${i}`, parent_id: parent.id });
    }
    const page1 = await client.get("/navigations/big/items");
    expect(page1.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 23,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(page1.body.data).toHaveLength(20);
    expect(titles(page1.body.data).slice(0, 2)).toEqual([["T01", ["T01.1", "T01.2"]], "T02"]);
    const page2 = await client.get("/navigations/big/items?page=2");
    expect(titles(page2.body.data)).toEqual(["T21", ["T22", ["T22.1", "T22.2"]], "T23"]);
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: 23,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });

    const flat1 = await client.get("/navigations/big/items?all=true");
    expect(flat1.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 27,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(flat1.body.data.slice(0, 4).map((item: { title: string }) => item.title)).toEqual([
      "T01",
      "T01.1",
      "T01.2",
      "T02",
    ]);
    const flat2 = await client.get("/navigations/big/items?all=true&page=2");
    expect(flat2.body.data.map((item: { title: string }) => item.title)).toEqual([
      "T19",
      "T20",
      "T21",
      "T22",
      "T22.1",
      "T22.2",
      "T23",
    ]);
    expect(flat2.body.data[4].parent_id).toBe(tops[21].id);
    const past = await client.get("/navigations/big/items?page=3");
    expect(past.body.data).toEqual([]);
    expect422(await client.get("/navigations/big/items?page=0"), "page");
    expect422(await client.get("/navigations/big/items?page=x"), "page");
    expect((await client.get("/navigations/big")).body.items_count).toBe(27);
  });

  it("takes the navigation by ID or handle, the item only by its ni_ ID", async () => {
    const navigation = await createNavigation("paths");
    const item = await addItem("paths", { title: "Item", url: "/i" });
    expect((await client.get(`/navigations/${navigation.id}/items/${item.id}`)).body).toEqual(item);
    expect((await client.get(`/navigations/paths/items/${item.id}`)).body).toEqual(item);
    expect((await client.get(`/navigations/${navigation.id}/items`)).body.data).toEqual([item]);
    expectError(await client.get("/navigations/paths/items/item"), 404);
    expectError(await client.get("/navigations/paths/items/ni_unknown"), 404);
    expectError(await client.get("/navigations/nowhere/items"), 404);
    expectError(await client.get(`/navigations/nowhere/items/${item.id}`), 404);
    expectError(await client.post("/navigations/nowhere/items", { title: "X" }), 404);
    // An item is reachable only under its own navigation.
    await createNavigation("paths-2");
    expectError(await client.get(`/navigations/paths-2/items/${item.id}`), 404);
    expectError(await client.patch(`/navigations/paths-2/items/${item.id}`, { title: "Y" }), 404);
    expectError(await client.delete(`/navigations/paths-2/items/${item.id}`), 404);
  });

  it("validates item fields", async () => {
    await createNavigation("strict");
    expect422(await client.post("/navigations/strict/items", { url: "/x" }), "title");
    expect422(await client.post("/navigations/strict/items", { title: "" }), "title");
    expect422(await client.post("/navigations/strict/items", { title: "P", priority: 1.5 }), "priority");
    expect422(await client.post("/navigations/strict/items", { title: "P", priority: "first" }), "priority");
    expect422(await client.post("/navigations/strict/items", { title: "U", url: "x".repeat(3000) }), "url");
    expect((await client.get("/navigations/strict")).body.items_count).toBe(0);
    // An empty url is no url.
    expect(await addItem("strict", { title: "Empty", url: "" })).toEqual(itemShape("Empty"));
  });
});

describe("items: idempotent create", () => {
  it("updates the item with the same title and url instead of adding one (200, same ID)", async () => {
    await createNavigation("idem");
    const first = await addItem("idem", { title: "Docs", url: "/docs" });
    const parent = await addItem("idem", { title: "Parent", url: "/parent" });
    const again = await client.post("/navigations/idem/items", {
      title: "Docs",
      url: "/docs",
      priority: 7,
      parent_id: parent.id,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      ...first,
      priority: 7,
      parent_id: parent.id,
      updated_at: expect.stringMatching(ISO),
    });
    // Without a priority or parent the item stays where it is.
    const third = await client.post("/navigations/idem/items", { title: "Docs", url: "/docs" });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ id: first.id, priority: 7, parent_id: parent.id });
    // Same title, other url; same url, other title: new items.
    expect((await client.post("/navigations/idem/items", { title: "Docs", url: "/docs/v2" })).status).toBe(
      201,
    );
    expect(
      (await client.post("/navigations/idem/items", { title: "Documentation", url: "/docs" })).status,
    ).toBe(201);
    // Items without url match on title.
    const bare = await addItem("idem", { title: "Label" });
    const bareAgain = await client.post("/navigations/idem/items", { title: "Label" });
    expect(bareAgain.status).toBe(200);
    expect(bareAgain.body.id).toBe(bare.id);
    expect((await client.get("/navigations/idem")).body.items_count).toBe(5);
    // Another navigation is not "that navigation".
    await createNavigation("idem-2");
    expect((await client.post("/navigations/idem-2/items", { title: "Docs", url: "/docs" })).status).toBe(
      201,
    );
  });

  it("updates the item with the same title and linked entry", async () => {
    await createNavigation("idem-linked");
    const first = await addItem("idem-linked", {
      title: "About",
      collection_handle: "pages",
      entry_handle: "about",
    });
    const again = await client.post("/navigations/idem-linked/items", {
      title: "About",
      collection_handle: "pages",
      entry_handle: "about",
      priority: 3,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, priority: 3, updated_at: expect.stringMatching(ISO) });
    // Another entry, or no entry with the same title: new items.
    expect(
      (
        await client.post("/navigations/idem-linked/items", {
          title: "About",
          collection_handle: "posts",
          entry_handle: "about",
        })
      ).status,
    ).toBe(201);
    expect(
      (await client.post("/navigations/idem-linked/items", { title: "About", url: "/about" })).status,
    ).toBe(201);
    expect((await client.get("/navigations/idem-linked")).body.items_count).toBe(3);
  });

  it("refuses, even on create, to make an item its own ancestor", async () => {
    await createNavigation("idem-cycle");
    const parent = await addItem("idem-cycle", { title: "Parent", url: "/p" });
    const child = await addItem("idem-cycle", { title: "Child", url: "/c", parent_id: parent.id });
    expect422(
      await client.post("/navigations/idem-cycle/items", { title: "Parent", url: "/p", parent_id: child.id }),
      "parent_id",
    );
    expect((await client.get(`/navigations/idem-cycle/items/${parent.id}`)).body.parent_id).toBeNull();
  });

  it("ends concurrent identical POSTs as one item: one 201, the others 200", async () => {
    await createNavigation("idem-race");
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post("/navigations/idem-race/items", { title: "Same", url: "/same" }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect((await client.get("/navigations/idem-race")).body.items_count).toBe(1);
  });

  it("appends concurrent different POSTs with distinct priorities", async () => {
    await createNavigation("append-race");
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client.post("/navigations/append-race/items", { title: `I${i}`, url: `/${i}` }),
      ),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(responses.map((r) => r.body.priority).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("items: update", () => {
  it("PUT and PATCH change only the fields sent", async () => {
    await createNavigation("edit");
    const item = await addItem("edit", { title: "Old", url: "/old", priority: 4 });
    const patched = await client.patch(`/navigations/edit/items/${item.id}`, { title: "New" });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...item, title: "New", updated_at: expect.stringMatching(ISO) });
    const put = await client.put(`/navigations/edit/items/${item.id}`, { url: "/new", priority: 2 });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      ...item,
      title: "New",
      url: "/new",
      priority: 2,
      updated_at: expect.stringMatching(ISO),
    });
    const ignored = await client.patch(`/navigations/edit/items/${item.id}`, {
      id: "ni_other",
      entity: {},
      children: [],
    });
    expect(ignored.status).toBe(200);
    expect(ignored.body).toEqual({ ...put.body, updated_at: expect.stringMatching(ISO) });
    expect((await client.get(`/navigations/edit/items/${item.id}`)).body).toEqual(ignored.body);
    expect422(await client.patch(`/navigations/edit/items/${item.id}`, { title: "" }), "title");
    expect422(await client.patch(`/navigations/edit/items/${item.id}`, { priority: "x" }), "priority");
    expectError(await client.patch("/navigations/edit/items/ni_ghost", { title: "x" }), 404);
  });

  it("links, relinks and unlinks an entry; a url replaces the link", async () => {
    await createNavigation("relink");
    const item = await addItem("relink", { title: "Link", url: "/somewhere" });
    const linked = await client.patch(`/navigations/relink/items/${item.id}`, {
      collection_handle: "pages",
      entry_handle: "about",
    });
    expect(linked.status).toBe(200);
    expect(linked.body.url).toBeNull();
    expect(linked.body.entity).toMatchObject({
      type: "CollectionEntry",
      handle: "about",
      url: "/pages/about",
    });
    // entry_handle alone: the entry of that handle in the collection linked now.
    const relinked = await client.patch(`/navigations/relink/items/${item.id}`, { entry_handle: "contact" });
    expect(relinked.status).toBe(200);
    expect(relinked.body.entity).toMatchObject({
      handle: "contact",
      title: "Contact",
      url: "/pages/contact",
    });
    const other = await client.patch(`/navigations/relink/items/${item.id}`, {
      collection_handle: "posts",
      entry_handle: "hello",
    });
    expect(other.body.entity).toMatchObject({ handle: "hello", url: "/blog/hello" });
    // A url replaces the link.
    const byUrl = await client.patch(`/navigations/relink/items/${item.id}`, { url: "/elsewhere" });
    expect(byUrl.body).toEqual({ ...item, url: "/elsewhere", updated_at: expect.stringMatching(ISO) });
    expect(byUrl.body).not.toHaveProperty("entity");
    // entry_handle null unlinks.
    await client.patch(`/navigations/relink/items/${item.id}`, {
      collection_handle: "pages",
      entry_handle: "about",
    });
    const unlinked = await client.patch(`/navigations/relink/items/${item.id}`, { entry_handle: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ ...item, url: null, updated_at: expect.stringMatching(ISO) });
  });

  it("answers 422 on entry_handle for an unknown collection/entry pair, and changes nothing", async () => {
    await createNavigation("bad-link");
    const item = await addItem("bad-link", {
      title: "Link",
      collection_handle: "pages",
      entry_handle: "about",
    });
    expect422(
      await client.patch(`/navigations/bad-link/items/${item.id}`, {
        collection_handle: "pages",
        entry_handle: "nope",
      }),
      "entry_handle",
    );
    expect422(
      await client.put(`/navigations/bad-link/items/${item.id}`, {
        collection_handle: "nope",
        entry_handle: "about",
      }),
      "entry_handle",
    );
    expect422(
      await client.put(`/navigations/bad-link/items/${item.id}`, { entry_handle: "nope", title: "Changed" }),
      "entry_handle",
    );
    expect422(
      await client.put(`/navigations/bad-link/items/${item.id}`, { collection_handle: "posts" }),
      "entry_handle",
    );
    const bare = await addItem("bad-link", { title: "Bare", url: "/bare" });
    expect422(
      await client.put(`/navigations/bad-link/items/${bare.id}`, { entry_handle: "about" }),
      "collection_handle",
    );
    expect((await client.get(`/navigations/bad-link/items/${item.id}`)).body).toEqual(item);
  });

  it("answers 422 on parent_id for an unknown parent, one in another navigation, or the item's own subtree", async () => {
    await createNavigation("moves");
    const a = await addItem("moves", { title: "A", url: "/a" });
    const b = await addItem("moves", { title: "B", url: "/b", parent_id: a.id });
    const c = await addItem("moves", { title: "C", url: "/c", parent_id: b.id });
    await createNavigation("moves-2");
    const foreign = await addItem("moves-2", { title: "Foreign", url: "/f" });
    expect422(await client.patch(`/navigations/moves/items/${b.id}`, { parent_id: "ni_nope" }), "parent_id");
    expect422(await client.patch(`/navigations/moves/items/${b.id}`, { parent_id: foreign.id }), "parent_id");
    expect422(await client.patch(`/navigations/moves/items/${a.id}`, { parent_id: a.id }), "parent_id");
    expect422(await client.patch(`/navigations/moves/items/${a.id}`, { parent_id: b.id }), "parent_id");
    expect422(await client.patch(`/navigations/moves/items/${a.id}`, { parent_id: c.id }), "parent_id");
    // Both problems at once.
    expect422(
      await client.patch(`/navigations/moves/items/${a.id}`, {
        parent_id: c.id,
        collection_handle: "pages",
        entry_handle: "nope",
      }),
      "parent_id",
      "entry_handle",
    );
    expect(titles((await client.get("/navigations/moves")).body.items)).toEqual([["A", [["B", ["C"]]]]]);
  });

  it("moves an item: after its new siblings unless a priority is sent; parent_id null to the top level", async () => {
    await createNavigation("move");
    const a = await addItem("move", { title: "A", url: "/a" });
    const b = await addItem("move", { title: "B", url: "/b" });
    await addItem("move", { title: "A1", url: "/a1", parent_id: a.id, priority: 5 });
    const moved = await client.patch(`/navigations/move/items/${b.id}`, { parent_id: a.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ parent_id: a.id, priority: 6 });
    expect(titles((await client.get("/navigations/move")).body.items)).toEqual([["A", ["A1", "B"]]]);
    const first = await client.patch(`/navigations/move/items/${b.id}`, { priority: 0 });
    expect(first.body).toMatchObject({ parent_id: a.id, priority: 0 });
    const back = await client.put(`/navigations/move/items/${b.id}`, { parent_id: null });
    expect(back.body).toMatchObject({ parent_id: null, priority: 1 });
    const c = await addItem("move", { title: "C", url: "/c", parent_id: b.id });
    // A parent moves with its subtree.
    const nested = await client.put(`/navigations/move/items/${b.id}`, { parent_id: a.id, priority: -1 });
    expect(nested.body).toMatchObject({
      parent_id: a.id,
      priority: -1,
      children: [{ id: c.id, parent_id: b.id }],
    });
    expect(titles((await client.get("/navigations/move/items")).body.data)).toEqual([
      ["A", [["B", ["C"]], "A1"]],
    ]);
  });
});

describe("items: linked entries", () => {
  it("entity.url follows the entry when its handle or its collection's routing changes", async () => {
    await createNavigation("follow");
    const entry = await client.post("/collections/pages/entries", { handle: "team", title: "Team" });
    expect(entry.status, entry.text).toBe(201);
    const item = await addItem("follow", { title: "Team", collection_handle: "pages", entry_handle: "team" });
    expect(item.entity).toEqual({
      type: "CollectionEntry",
      id: entry.body.id,
      handle: "team",
      title: "Team",
      url: "/pages/team",
    });
    const renamed = await client.patch(`/collections/pages/entries/${entry.body.id}`, {
      handle: "our-team",
      title: "Our team",
    });
    expect(renamed.status, renamed.text).toBe(200);
    const after = await client.get(`/navigations/follow/items/${item.id}`);
    expect(after.body).toEqual({
      ...item,
      entry_handle: "our-team",
      entity: {
        type: "CollectionEntry",
        id: entry.body.id,
        handle: "our-team",
        title: "Our team",
        url: "/pages/our-team",
      },
    });
    expect((await client.get("/navigations/follow/items")).body.data[0].entity.url).toBe("/pages/our-team");
    expect((await client.get("/navigations/follow/items?all=true")).body.data[0].entity.url).toBe(
      "/pages/our-team",
    );
    // The item keeps its own title and its null url.
    expect(after.body.title).toBe("Team");
    expect(after.body.url).toBeNull();
  });

  it("an item whose entry is deleted stays, unlinked", async () => {
    await createNavigation("gone");
    const entry = await client.post("/collections/posts/entries", {
      handle: "temporary",
      title: "Temporary",
    });
    const item = await addItem("gone", {
      title: "Temp",
      collection_handle: "posts",
      entry_handle: "temporary",
    });
    expect(item.entity.id).toBe(entry.body.id);
    expect((await client.delete(`/collections/posts/entries/${entry.body.id}`)).status).toBe(204);
    const after = await client.get(`/navigations/gone/items/${item.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({
      ...item,
      collection_handle: undefined,
      entry_handle: undefined,
      entity: undefined,
      updated_at: expect.stringMatching(ISO),
    });
    expect(after.body).not.toHaveProperty("entity");
    expect(after.body).not.toHaveProperty("entry_handle");
  });

  it("does not link entries of another account", async () => {
    const theirs = await other.post("/collections", {
      name: "Secret",
      handle: "secret",
      routing: "s/:handle",
      blueprint: { fields: [] },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const entry = await other.post("/collections/secret/entries", { handle: "plans", title: "Plans" });
    expect(entry.status, entry.text).toBe(201);
    await createNavigation("no-peeking");
    const item = await addItem("no-peeking", {
      title: "Plans",
      collection_handle: theirs.body.id,
      entry_handle: entry.body.id,
    });
    expect(item).toEqual(itemShape("Plans"));
    expect422(
      await client.patch(`/navigations/no-peeking/items/${item.id}`, {
        collection_handle: "secret",
        entry_handle: "plans",
      }),
      "entry_handle",
    );
  });
});

describe("items: delete", () => {
  it("answers 204 with an empty body and deletes the item's subtree", async () => {
    await createNavigation("prune");
    const keep = await addItem("prune", { title: "Keep", url: "/k" });
    const root = await addItem("prune", { title: "Root", url: "/r" });
    const child = await addItem("prune", { title: "Child", url: "/c", parent_id: root.id });
    const grandchild = await addItem("prune", { title: "Grandchild", url: "/g", parent_id: child.id });
    expect((await client.get("/navigations/prune")).body.items_count).toBe(4);
    const deleted = await client.delete(`/navigations/prune/items/${root.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    for (const gone of [root, child, grandchild])
      expectError(await client.get(`/navigations/prune/items/${gone.id}`), 404);
    const navigation = await client.get("/navigations/prune");
    expect(navigation.body.items_count).toBe(1);
    expect(navigation.body.items.map((item: { id: string }) => item.id)).toEqual([keep.id]);
    expectError(await client.delete(`/navigations/prune/items/${root.id}`), 404);
  });
});

describe("items: other accounts", () => {
  it("answers 403 to another account's token and 404 through the other account's own path", async () => {
    const navigation = await createNavigation("guarded");
    const item = await addItem("guarded", { title: "Secret", url: "/s" });
    const base = `/v1/accounts/${client.account.account_id}/navigations/${navigation.id}/items`;
    const json = { "content-type": "application/json" };
    expectError(await other.raw(base), 403);
    expectError(await other.raw(`${base}/${item.id}`), 403);
    expectError(
      await other.raw(base, { method: "POST", headers: json, body: JSON.stringify({ title: "X" }) }),
      403,
    );
    expectError(
      await other.raw(`${base}/${item.id}`, {
        method: "PATCH",
        headers: json,
        body: JSON.stringify({ title: "X" }),
      }),
      403,
    );
    expectError(await other.raw(`${base}/${item.id}`, { method: "DELETE" }), 403);
    expectError(await other.get(`/navigations/${navigation.id}/items`), 404);
    expectError(await other.get(`/navigations/${navigation.id}/items/${item.id}`), 404);
    expectError(await other.post(`/navigations/${navigation.id}/items`, { title: "X" }), 404);
    expectError(await other.delete(`/navigations/${navigation.id}/items/${item.id}`), 404);
    // Even under a navigation of its own, the other account cannot reach the item.
    await createNavigation("guarded", "Guarded", other);
    expectError(await other.get(`/navigations/guarded/items/${item.id}`), 404);
    expectError(await other.patch(`/navigations/guarded/items/${item.id}`, { title: "X" }), 404);
    expectError(await other.delete(`/navigations/guarded/items/${item.id}`), 404);
    // A parent_id of another account's item is unknown.
    const theirs = await other.post("/navigations/guarded/items", {
      title: "Theirs",
      url: "/t",
      parent_id: item.id,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.parent_id).toBeNull();
    expect((await client.get(`/navigations/guarded/items/${item.id}`)).body).toEqual(item);
  });
});
