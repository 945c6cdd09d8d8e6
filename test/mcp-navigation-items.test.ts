// A menu through the tool interface (SDK client over HTTP): a tree read with navigations_get and written
// back with navigations_save changes nothing, entry links included, and a read-modify-write keeps what it
// does not touch; navigation_items_list and navigation_items_save work item by item. Runs on SQLite, or
// PostgreSQL with TEST_DATABASE=postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { type McpClient, mcpClient } from "./helpers/mcp.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let rest: Api;
let mcp: McpClient;
let other: McpClient;

type Item = Record<string, any> & { id: string; title: string; children?: Item[] };

async function restGet(path: string): Promise<any> {
  const response = await rest.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  return response.body;
}

/** Every item of a tree, depth first. */
function flatten(items: Item[]): Item[] {
  return items.flatMap((item) => [item, ...flatten(item.children ?? [])]);
}

beforeAll(async () => {
  server = await startServer();
  const [account, second] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
  rest = api(server, account);
  [mcp, other] = await Promise.all([mcpClient(server, account.token), mcpClient(server, second.token)]);
  await expectCreated(
    rest.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: "pages/:handle",
      blueprint: { fields: [] },
    }),
  );
  for (const handle of ["about", "guide", "draft"])
    await expectCreated(
      rest.post("/collections/pages/entries", { handle, title: handle, published: handle !== "draft" }),
    );
  await expectCreated(rest.post("/navigations", { title: "Main", handle: "main" }));
  // Built item by item over REST: priorities with gaps and ties, links at two levels, an unpublished one.
  const items = "/navigations/main/items";
  const home = await expectCreated(rest.post(items, { title: "Home", url: "/", priority: 10 }));
  const about = await expectCreated(
    rest.post(items, { title: "About", collection_handle: "pages", entry_handle: "about", priority: 10 }),
  );
  await expectCreated(
    rest.post(items, {
      title: "Guide",
      collection_handle: "pages",
      entry_handle: "guide",
      parent_id: about.id,
    }),
  );
  await expectCreated(
    rest.post(items, {
      title: "Draft",
      collection_handle: "pages",
      entry_handle: "draft",
      parent_id: about.id,
    }),
  );
  await expectCreated(rest.post(items, { title: "Contact", url: "/contact", priority: 30 }));
  expect(home.id).toMatch(/^ni_/);
}, 120_000);

afterAll(async () => {
  await Promise.all([mcp?.close(), other?.close()]);
  await server?.stop();
});

describe("navigations_get and navigations_save", () => {
  it("reads a linked item with the entry it links to, as writes name it", async () => {
    const menu = await mcp.ok("navigations_get", { handle: "main" });
    expect(menu).toEqual(await restGet("/navigations/main"));
    const about = menu.items.find((item: Item) => item.title === "About");
    expect(about).toMatchObject({ url: null, collection_handle: "pages", entry_handle: "about" });
    expect(about.children.map((item: Item) => [item.title, item.entry_handle])).toEqual([
      ["Guide", "guide"],
      ["Draft", "draft"],
    ]);
    const home = menu.items.find((item: Item) => item.title === "Home");
    expect(Object.keys(home).sort()).toEqual(["created_at", "id", "priority", "title", "updated_at", "url"]);
  });

  it("writes a tree read back as it was: the menu, its items and their links unchanged", async () => {
    const before = await mcp.ok("navigations_get", { handle: "main" });
    const links = await restGet("/navigations/main/items?all=true");
    const saved = await mcp.ok("navigations_save", { handle: "main", items: before.items });
    expect(saved).toEqual(before);
    expect(await mcp.ok("navigations_get", { handle: "main" })).toEqual(before);
    expect(await restGet("/navigations/main")).toEqual(before);
    const after = await restGet("/navigations/main/items?all=true");
    expect(after).toEqual(links);
    expect(after.data.filter((item: Item) => item.entity).map((item: Item) => item.entity.handle)).toEqual([
      "about",
      "guide",
      "draft",
    ]);
  });

  it("keeps what a read-modify-write leaves alone and changes only what it changes", async () => {
    const before = await mcp.ok("navigations_get", { handle: "main" });
    const [home, about, contact] = before.items as Item[];
    expect([home?.title, about?.title, contact?.title]).toEqual(["Home", "About", "Contact"]);
    const guide = about?.children?.[0] as Item;
    // Contact moves first, Guide is retitled, Draft is dropped, a new item is added under About.
    const edited = [
      contact,
      home,
      {
        ...about,
        children: [
          { ...guide, title: "The guide" },
          { title: "New", url: "/new" },
        ],
      },
    ];
    const saved = await mcp.ok("navigations_save", { handle: "main", items: edited });
    expect(saved.items.map((item: Item) => item.title)).toEqual(["Contact", "Home", "About"]);
    const [movedContact, movedHome, keptAbout] = saved.items as Item[];
    expect(movedContact).toMatchObject({ id: contact?.id, created_at: contact?.created_at });
    // Home keeps its place after Contact (priority 30) by taking the next priority.
    expect(movedHome).toEqual({ ...home, priority: 31, updated_at: expect.any(String) });
    expect(keptAbout).toMatchObject({ id: about?.id, collection_handle: "pages", entry_handle: "about" });
    expect(keptAbout?.children?.map((item) => item.title)).toEqual(["The guide", "New"]);
    expect(keptAbout?.children?.[0]).toMatchObject({
      id: guide.id,
      created_at: guide.created_at,
      collection_handle: "pages",
      entry_handle: "guide",
    });
    expect(flatten(saved.items)).toHaveLength(5);
    expect(await restGet("/navigations/main")).toEqual(saved);
  });

  it("refuses an item ID the menu does not have, and one given twice, changing nothing", async () => {
    const before = await mcp.ok("navigations_get", { handle: "main" });
    const [first, second] = before.items as Item[];
    const refused = await mcp.fails(
      "navigations_save",
      {
        handle: "main",
        items: [{ ...first, id: "ni_00000000000000000000000000" }, second, { ...second, title: "Twice" }],
      },
      422,
      "items[0].id",
      "items[2].id",
    );
    expect(refused.details.map((detail) => detail.message).sort()).toEqual([
      "is given to another item of the tree too",
      "no item 'ni_00000000000000000000000000' in this navigation",
    ]);
    await mcp.fails("navigations_save", { handle: "main", items: [{ ...first, priority: "high" }] }, 422);
    expect(await mcp.ok("navigations_get", { handle: "main" })).toEqual(before);
  });
});

describe("navigation_items_list and navigation_items_save", () => {
  it("lists a menu's items as REST does, nested or flat", async () => {
    expect(await mcp.ok("navigation_items_list", { navigation: "main" })).toEqual(
      await restGet("/navigations/main/items"),
    );
    const flat = await mcp.ok("navigation_items_list", { navigation: "main", all: true });
    expect(flat).toEqual(await restGet("/navigations/main/items?all=true"));
    expect(flat.data.find((item: Item) => item.title === "About")).toMatchObject({
      collection_handle: "pages",
      entry_handle: "about",
      entity: { type: "CollectionEntry", handle: "about", url: "/pages/about" },
    });
    await mcp.fails("navigation_items_list", { navigation: "nope" }, 404);
    await other.fails("navigation_items_list", { navigation: "main" }, 404);
  });

  it("adds one item, then changes it by its ID", async () => {
    const added = await mcp.ok("navigation_items_save", {
      navigation: "main",
      title: "Guide again",
      collection_handle: "pages",
      entry_handle: "guide",
    });
    expect(added).toMatchObject({
      id: expect.stringMatching(/^ni_/),
      title: "Guide again",
      url: null,
      collection_handle: "pages",
      entry_handle: "guide",
      parent_id: null,
      entity: { handle: "guide", url: "/pages/guide" },
    });
    expect(added).toEqual(await restGet(`/navigations/main/items/${added.id}`));
    const parent = (await mcp.ok("navigations_get", { handle: "main" })).items[0] as Item;
    const changed = await mcp.ok("navigation_items_save", {
      navigation: "main",
      id: added.id,
      title: "Elsewhere",
      url: "/elsewhere",
      parent_id: parent.id,
    });
    expect(changed).toMatchObject({
      id: added.id,
      title: "Elsewhere",
      url: "/elsewhere",
      parent_id: parent.id,
    });
    expect(changed).not.toHaveProperty("entity");
    expect(changed).not.toHaveProperty("entry_handle");
    expect(changed).toEqual(await restGet(`/navigations/main/items/${added.id}`));
  });

  it("refuses bad input with a clear error", async () => {
    await mcp.fails("navigation_items_save", { title: "No menu" }, 422, "navigation");
    await mcp.fails("navigation_items_save", { navigation: "main", url: "/no-title" }, 422, "title");
    await mcp.fails("navigation_items_save", { navigation: "nope", title: "X" }, 404);
    await mcp.fails(
      "navigation_items_save",
      { navigation: "main", id: "ni_00000000000000000000000000", title: "X" },
      404,
    );
    const items = (await mcp.ok("navigation_items_list", { navigation: "main", all: true })).data as Item[];
    const some = items[0] as Item;
    await mcp.fails(
      "navigation_items_save",
      { navigation: "main", id: some.id, collection_handle: "pages", entry_handle: "nope" },
      422,
      "entry_handle",
    );
    await mcp.fails(
      "navigation_items_save",
      { navigation: "main", id: some.id, parent_id: "ni_nope" },
      422,
      "parent_id",
    );
    await mcp.fails("navigation_items_save", { navigation: "main", title: 5 }, 422, "title");
    await other.fails("navigation_items_save", { navigation: "main", title: "Theirs" }, 404);
  });
});
