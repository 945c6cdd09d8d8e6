// Replacing a navigation's whole item tree at once over /graphql (navigationItemsReplace, what the tool
// interface's `navigations_save` runs): the tree as REST and the site read it afterwards, all problems of
// a refused tree in one 422 with nothing written, the limits, and who may call it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let readToken: string;
let otherToken: string;
let guideId: string;

const ITEM_ID = /^ni_[0-9a-z]{26}$/;

const replaceMutation = `mutation ($account: ID!, $nav: ID!, $items: [NavigationTreeItemInput!]!) {
  navigationItemsReplace(account_id: $account, navigation_id: $nav, items: $items) {
    id handle title items_count items
  }
}`;

function replace(items: unknown, token = account.token, nav = "main"): Promise<ApiResponse> {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: replaceMutation, variables: { account: account.account_id, nav, items } }),
  });
}

function replaced(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data.navigationItemsReplace;
}

/** A refused GraphQL call: its status and the paths of its details (order free). */
function refused(response: ApiResponse, status: number, ...paths: string[]) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.data ?? null, response.text).toBeNull();
  const details = response.body.errors[0].extensions.details as { path: string; message: string }[];
  expect(details.map((detail) => detail.path).sort(), response.text).toEqual([...paths].sort());
  return details;
}

type Item = { id: string; title: string; priority: number; children?: Item[] };

/** Titles of a tree: [title, [children...]] or title when it has none. */
function titles(items: Item[]): unknown[] {
  return items.map((item) => (item.children ? [item.title, titles(item.children)] : item.title));
}

const threeLevels = [
  { title: "Home", url: "/" },
  {
    title: "Docs",
    url: "/docs",
    children: [
      {
        title: "Guide",
        collection_handle: "pages",
        entry_handle: "guide",
        children: [{ title: "Deep", url: "/deep" }],
      },
      { title: "API", url: "/api" },
    ],
  },
  { title: "Contact", url: "/contact" },
];

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Main");
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
  expect(read.code, read.stderr).toBe(0);
  readToken = JSON.parse(read.stdout).token;
  otherToken = (await createAccount(server, "Other")).token;
  await expectCreated(
    client.post("/templates", {
      handle: "theme",
      kind: "layout",
      title: "Theme",
      html: "<main>{{ content_for_layout }}</main>",
    }),
  );
  await expectCreated(
    client.post("/templates", {
      handle: "menu",
      kind: "template",
      title: "Menu",
      html:
        '<p class="menu">{% for a in navigation.main %}[{{ a.title }}|{{ a.url }}|{% for b in a.children %}' +
        "{{ b.title }}:{{ b.url }}{% for c in b.children %}<{{ c.title }}:{{ c.url }}>{% endfor %};{% endfor %}]{% endfor %}</p>",
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: "pages/:handle",
      blueprint: { fields: [] },
    }),
  );
  guideId = (
    await expectCreated(client.post("/collections/pages/entries", { handle: "guide", title: "Guide" }))
  ).id;
  await expectCreated(
    client.post("/collections/pages/entries", { handle: "menu", title: "Menu", template_handle: "menu" }),
  );
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("navigationItemsReplace", () => {
  let firstIds: string[] = [];

  it("replaces the items with a three-level tree with a linked entry, as Query.navigation answers it", async () => {
    const old = await expectCreated(client.post("/navigations/main/items", { title: "Old", url: "/old" }));
    const navigation = replaced(await replace(threeLevels));
    expect(navigation).toMatchObject({ handle: "main", title: "Main", items_count: 6 });
    expect(titles(navigation.items)).toEqual(["Home", ["Docs", [["Guide", ["Deep"]], "API"]], "Contact"]);
    const [home, docs] = navigation.items as Item[];
    expect(home).toEqual({
      id: expect.stringMatching(ITEM_ID),
      title: "Home",
      url: "/",
      priority: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(navigation.items.map((item: Item) => item.priority)).toEqual([0, 1, 2]);
    expect(docs?.children?.map((item) => item.priority)).toEqual([0, 1]);
    // A linked item's url is its entry's, given only where the entry is shown (/items, the site).
    expect(docs?.children?.[0]).toMatchObject({ title: "Guide", url: null });

    const rest = await client.get("/navigations/main");
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.items).toEqual(navigation.items);
    expect((await client.get(`/navigations/main/items/${old.id}`)).status).toBe(404);

    const flat = await client.get("/navigations/main/items?all=true");
    expect(flat.status, flat.text).toBe(200);
    const byTitle = Object.fromEntries(flat.body.data.map((item: { title: string }) => [item.title, item]));
    expect(flat.body.data.map((item: Item) => item.title)).toEqual([
      "Home",
      "Docs",
      "Guide",
      "Deep",
      "API",
      "Contact",
    ]);
    expect(byTitle.Home.parent_id).toBeNull();
    expect(byTitle.Guide.parent_id).toBe(byTitle.Docs.id);
    expect(byTitle.Deep.parent_id).toBe(byTitle.Guide.id);
    expect(byTitle.Guide.entity).toEqual({
      type: "CollectionEntry",
      id: guideId,
      handle: "guide",
      title: "Guide",
      url: "/pages/guide",
    });
    firstIds = flat.body.data.map((item: Item) => item.id);
  });

  it("shows the tree on the site", async () => {
    const page = await siteGet(server, "/pages/menu", account.domain);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(
      '<p class="menu">[Home|/|][Docs|/docs|Guide:/pages/guide<Deep:/deep>;API:/api;][Contact|/contact|]</p>',
    );
  });

  it("replaces it again with a smaller tree: the old items are gone", async () => {
    const navigation = replaced(
      await replace([
        { title: "Only", children: [{ title: "Child", url: "/child", collection_handle: "" }] },
      ]),
    );
    expect(navigation.items_count).toBe(2);
    expect(titles(navigation.items)).toEqual([["Only", ["Child"]]]);
    expect(navigation.items[0]).toMatchObject({ url: null, children: [{ url: "/child" }] });
    const flat = await client.get("/navigations/main/items?all=true");
    expect(flat.body.data.map((item: Item) => item.title)).toEqual(["Only", "Child"]);
    for (const id of firstIds) expect(flat.body.data.map((item: Item) => item.id)).not.toContain(id);
    expect((await client.get(`/navigations/main/items/${firstIds[0]}`)).status).toBe(404);
  });

  it("refuses a tree with invalid items deep inside with every problem in one 422, writing nothing", async () => {
    const before = await client.get("/navigations/main");
    const details = refused(
      await replace([
        { title: "A", collection_handle: "pages", entry_handle: "nope" },
        { title: "B", children: [{ title: " " }] },
        { title: "C", children: [{ title: "D" }, { title: "E", url: `/${"x".repeat(2048)}` }] },
        { title: "F", entry_handle: "guide" },
      ]),
      422,
      "items[0].entry_handle",
      "items[1].children[0].title",
      "items[2].children[1].url",
      "items[3].collection_handle",
    );
    expect(details).toContainEqual({
      path: "items[0].entry_handle",
      message: "no entry 'nope' in collection 'pages'",
    });
    expect(details).toContainEqual({
      path: "items[2].children[1].url",
      message: "must be at most 2048 characters",
    });
    const after = await client.get("/navigations/main");
    expect(after.body.items).toEqual(before.body.items);
    expect(titles(after.body.items)).toEqual([["Only", ["Child"]]]);
  });

  it("keeps the old tree when the database refuses the new one after the old items were deleted", async () => {
    // The NUL is caught only as the rows are written, after the delete: the transaction undoes both.
    const before = await client.get("/navigations/main");
    const response = await replace([{ title: "A" }, { title: "B", children: [{ title: "nul\u0000" }] }]);
    expect(response.status, response.text).toBe(422);
    expect(response.body.errors[0].extensions.details, response.text).toEqual([
      { path: "title", message: expect.stringMatching(/NUL/) },
    ]);
    const after = await client.get("/navigations/main");
    expect(after.body.items).toEqual(before.body.items);
    expect(titles(after.body.items)).toEqual([["Only", ["Child"]]]);
  });

  it("refuses an item without a title, naming where it is", async () => {
    // GraphQL itself refuses the variable before the resolver runs: /graphql answers such coercion
    // failures 400 (REST and the tool interface turn them into a 422 on the same place).
    const response = await replace([{ title: "A", children: [{ url: "/x" }] }]);
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors[0].message).toContain('at "items[0].children[0]"; Field "title"');
  });

  it(`refuses trees deeper than 10 levels or of more than 500 items`, async () => {
    let deep: Record<string, unknown> = { title: "11" };
    for (let level = 10; level >= 1; level--) deep = { title: String(level), children: [deep] };
    const tooDeep = `items[0]${".children[0]".repeat(9)}.children`;
    const [problem] = refused(await replace([deep]), 422, tooDeep);
    expect(problem?.message).toBe("must not nest deeper than 10 levels");
    // Ten levels are fine.
    const ten = (deep.children as Record<string, unknown>[])[0];
    expect(replaced(await replace([ten])).items_count).toBe(10);

    const many = Array.from({ length: 25 }, (_, i) => ({
      title: `T${i}`,
      children: Array.from({ length: 19 }, (_, j) => ({ title: `C${i}.${j}` })),
    }));
    const [tooMany] = refused(await replace([...many, { title: "one too many" }]), 422, "items");
    expect(tooMany?.message).toBe("must hold at most 500 items, children included");
    expect(replaced(await replace(many)).items_count).toBe(500);
    expect((await client.get("/navigations/main")).body.items_count).toBe(500);
  });

  it("refuses read tokens and other accounts' tokens with 403, leaving the tree as it was", async () => {
    const before = await client.get("/navigations/main/items?all=true");
    const read = await replace([{ title: "X" }], readToken);
    expect(read.status, read.text).toBe(403);
    expect(read.body.errors[0].message).toBe("This token may only read");
    const foreign = await replace([{ title: "X" }], otherToken);
    expect(foreign.status, foreign.text).toBe(403);
    expect(foreign.body.errors[0].message).toBe("This token is not valid for this account");
    const after = await client.get("/navigations/main/items?all=true");
    expect(after.body).toEqual(before.body);
    expect(before.body.pagination.total).toBe(500);
  });

  it("answers 404 for an unknown navigation", async () => {
    const response = await replace([], account.token, "nope");
    expect(response.status, response.text).toBe(404);
    expect(response.body.errors[0].message).toBe("Navigation not found");
  });
});

// Item by item over REST, the tree keeps the bounds above: an account's export always imports back.
describe("REST item writes keep the tree's bounds", () => {
  const items = (nav: string) => `/navigations/${nav}/items`;

  it("refuses an item or a move that would nest deeper than 10 levels", async () => {
    await expectCreated(client.post("/navigations", { title: "Side", handle: "side" }));
    const chain: string[] = [];
    for (let level = 1; level <= 10; level++) {
      const parent = chain.at(-1) ?? null;
      chain.push(
        (await expectCreated(client.post(items("side"), { title: `L${level}`, parent_id: parent }))).id,
      );
    }
    const tooDeep = await client.post(items("side"), { title: "L11", parent_id: chain[9] });
    expect(tooDeep.status, tooDeep.text).toBe(422);
    expect(tooDeep.body).toEqual({
      error: "Validation failed",
      details: [{ path: "parent_id", message: "must not nest deeper than 10 levels" }],
    });

    // A two-level subtree fits under level 8, not under level 9.
    const top = (await expectCreated(client.post(items("side"), { title: "Top" }))).id;
    await expectCreated(client.post(items("side"), { title: "Below", parent_id: top }));
    const moved = await client.patch(`${items("side")}/${top}`, { parent_id: chain[8] });
    expect(moved.status, moved.text).toBe(422);
    expect(moved.body.details).toEqual([
      { path: "parent_id", message: "must not nest deeper than 10 levels" },
    ]);
    const fits = await client.patch(`${items("side")}/${top}`, { parent_id: chain[7] });
    expect(fits.status, fits.text).toBe(200);
    expect(fits.body.parent_id).toBe(chain[7]);
    expect((await client.get("/navigations/side")).body.items_count).toBe(12);
  });

  it("refuses an item past 500 in one navigation", async () => {
    expect((await client.get("/navigations/main")).body.items_count).toBe(500);
    const tooMany = await client.post(items("main"), { title: "501st", url: "/501" });
    expect(tooMany.status, tooMany.text).toBe(422);
    expect(tooMany.body).toEqual({
      error: "Validation failed",
      details: [{ path: "navigation_id", message: "must hold at most 500 items, children included" }],
    });
    expect((await client.get("/navigations/main")).body.items_count).toBe(500);
  });
});
