// The read cache (src/schema/read-cache.ts) keeps answers until the data generation changes. These tests
// read through one server process, write through another on the same database (SQLite file or
// PostgreSQL database), and read again: a kept answer must never outlive a commit, whoever made it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let reader: TestServer;
let writer: TestServer;
let account: TestAccount;
let viaReader: Api;
let viaWriter: Api;

beforeAll(async () => {
  reader = await startServer();
  writer = await reader.twin();
  account = await createAccount(reader, "Kept");
  viaReader = api(reader, account);
  viaWriter = api(writer, account);
  await expectCreated(
    viaReader.post("/templates", { template: { handle: "note", html: "<p>{{ title }}</p>" } }),
  );
  await expectCreated(
    viaReader.post("/templates", {
      template: { handle: "clock", html: '<p>{{ "now" | date: "%s%L" }}</p>' },
    }),
  );
  const faces = Array.from({ length: 100 }, (_, face) => face).join(",");
  await expectCreated(
    viaReader.post("/templates", {
      template: {
        handle: "dice",
        html: `{% assign faces = "${faces}" | split: "," %}<p>{% for i in (1..6) %}{{ faces | sample }}.{% endfor %}</p>`,
      },
    }),
  );
  await expectCreated(
    viaReader.post("/collections", {
      name: "Notes",
      handle: "notes",
      routing: "notes/:handle",
      template_handle: "note",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(viaReader.post("/collections/notes/entries", { handle: "hello", title: "Hello" }));
});

afterAll(async () => {
  await writer?.stop();
  await reader?.stop();
});

/**
 * After a write through the other process: on SQLite the next read sees it (data_version); PostgreSQL
 * tells this process a moment after the commit (NOTIFY, milliseconds; per-account-cache.test.ts measures
 * it), so the reads wait out that delay.
 */
const heard = () => (usesPostgres ? new Promise((resolve) => setTimeout(resolve, 300)) : Promise.resolve());

const graphqlTitles = async () => {
  const response = await request(`${reader.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: `{ entries(account_id: "${account.account_id}", collection_id: "notes") { data { title } } }`,
    }),
  });
  expect(response.status, response.text).toBe(200);
  return (response.body.data.entries.data as { title: string }[]).map((entry) => entry.title);
};

describe("kept answers", () => {
  it("show another process's update at the next read: REST, GraphQL and site pages", async () => {
    for (let round = 0; round < 2; round++) {
      expect((await viaReader.get("/collections/notes/entries/hello")).body.title).toBe("Hello");
      expect(await graphqlTitles()).toEqual(["Hello"]);
      expect((await siteGet(reader, "/notes/hello", account.domain)).text).toContain("<p>Hello</p>");
    }
    const updated = await viaWriter.put("/collections/notes/entries/hello", { title: "Hello again" });
    await heard();
    expect(updated.status, updated.text).toBe(200);

    expect((await viaReader.get("/collections/notes/entries/hello")).body.title).toBe("Hello again");
    expect(await graphqlTitles()).toEqual(["Hello again"]);
    expect((await siteGet(reader, "/notes/hello", account.domain)).text).toContain("<p>Hello again</p>");
  });

  it("show another process's create in list totals at once", async () => {
    const before = await viaReader.get("/collections/notes/entries");
    expect(before.status, before.text).toBe(200);
    const total = before.body.pagination.total as number;
    await expectCreated(viaWriter.post("/collections/notes/entries", { handle: "second", title: "Second" }));
    await heard();
    const after = await viaReader.get("/collections/notes/entries");
    expect(after.body.pagination.total).toBe(total + 1);
    expect(after.body.data.map((entry: { handle: string }) => entry.handle)).toContain("second");
  });

  it("show this process's own write at once, and the same answer to every repeat", async () => {
    const first = await viaReader.get("/collections/notes/entries/second");
    expect((await viaReader.get("/collections/notes/entries/second")).text).toBe(first.text);
    await viaReader.put("/collections/notes/entries/second", { title: "Second, edited" });
    expect((await viaReader.get("/collections/notes/entries/second")).body.title).toBe("Second, edited");
  });

  it("are never another caller's, and a token revoked through the other process stops at once", async () => {
    const other = await createAccount(reader, "Other");
    // The same URL, kept for the account's own token, is still refused to another account's token.
    expect((await viaReader.get("/collections")).status).toBe(200);
    expect((await api(reader, account, other.token).get("/collections")).status).toBe(403);
    expect((await api(reader, other).get("/collections")).status).toBe(200);
    const revoked = await cms(writer, ["token", "revoke", "--token", other.token]);
    await heard();
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await api(reader, other).get("/collections")).status).toBe(401);
  });

  it("are not kept for a page that shows the current time", async () => {
    await viaWriter.put("/collections/notes", { template_handle: "clock" });
    await heard();
    const first = await siteGet(reader, "/notes/hello", account.domain);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await siteGet(reader, "/notes/hello", account.domain);
    expect(first.text).toMatch(/<p>\d{13,}<\/p>/);
    expect(second.text).toMatch(/<p>\d{13,}<\/p>/);
    expect(second.text).not.toBe(first.text);
  });

  it("are not kept for a page that samples at random", async () => {
    await viaWriter.put("/collections/notes", { template_handle: "dice" });
    await heard();
    const first = await siteGet(reader, "/notes/hello", account.domain);
    const second = await siteGet(reader, "/notes/hello", account.domain);
    // Six draws from 100 faces: the same page twice by chance is one in 10^12.
    expect(first.text).toMatch(/<p>(\d+\.){6}<\/p>/);
    expect(second.text).toMatch(/<p>(\d+\.){6}<\/p>/);
    expect(second.text).not.toBe(first.text);
  });
});

// A create keeps its token and its collection with the blueprints until those tables change, not until
// the next entry: each must still see every change to them, made here or by the other process.
describe("kept lookups of creates", () => {
  let created = 0;
  const create = (via: Api, values: Record<string, unknown> = {}) =>
    via.post("/collections/drafts/entries", { handle: `draft-${created++}`, title: "Draft", ...values });

  beforeAll(async () => {
    await expectCreated(
      viaReader.post("/collections", {
        name: "Drafts",
        handle: "drafts",
        routing: "drafts/:handle",
        blueprint: { handle: "draft", fields: [] },
      }),
    );
    for (let i = 0; i < 3; i++) await expectCreated(create(viaReader));
  });

  it("see a blueprint and a collection changed through the other process at the next create", async () => {
    await viaWriter.put("/blueprints/draft", { fields: [{ handle: "rating", type: "number" }] });
    await heard();
    expect((await expectCreated(create(viaReader, { rating: 4.5 }))).rating).toBe(4.5);
    await viaWriter.put("/blueprints/draft", {
      fields: [{ handle: "rating", type: "number", options: { number_type: "integer" } }],
    });
    await heard();
    const refused = await create(viaReader, { rating: 4.5 });
    expect(refused.status, refused.text).toBe(422);
    await viaWriter.put("/collections/drafts", { routing: "notes-drafts/:handle" });
    await heard();
    expect((await expectCreated(create(viaReader))).content_path).toMatch(/^\/notes-drafts\/draft-\d+$/);
  });

  it("see this process's own blueprint and collection changes at the next create", async () => {
    await viaReader.put("/blueprints/draft", { fields: [{ handle: "mood", type: "text" }] });
    expect((await expectCreated(create(viaReader, { mood: "calm" }))).mood).toBe("calm");
    await viaReader.put("/collections/drafts", { routing: "own-drafts/:handle" });
    expect((await expectCreated(create(viaReader))).content_path).toMatch(/^\/own-drafts\/draft-\d+$/);
  });

  it("see a blueprint changed by an earlier mutation of the same GraphQL document", async () => {
    const mutate = async (field: string) => {
      const response = await request(`${reader.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation($account: ID!, $fields: [BlueprintFieldInput!]!, $values: JSON) {
            blueprintUpdate(account_id: $account, id: "draft", input: { fields: $fields }) { id }
            entryCreate(account_id: $account, collection_id: "drafts",
              input: { handle: "draft-${created++}", title: "Draft", values: $values }) { entry { values } }
          }`,
          variables: {
            account: account.account_id,
            fields: [{ handle: field, type: "text" }],
            values: { [field]: "sunny" },
          },
        }),
      });
      expect(response.status, response.text).toBe(200);
      return response.body.data.entryCreate.entry.values as Record<string, unknown>;
    };
    expect(await mutate("weather")).toMatchObject({ weather: "sunny" });
    expect(await mutate("outlook")).toMatchObject({ outlook: "sunny" });
  });

  it("refuse a token revoked through the other process at the next create", async () => {
    const token = JSON.parse(
      (await cms(writer, ["token", "create", "--account", account.account_id, "--json"])).stdout,
    ).token as string;
    const viaToken = api(reader, account, token);
    await expectCreated(create(viaToken));
    await expectCreated(create(viaToken));
    expect((await cms(writer, ["token", "revoke", "--token", token])).code).toBe(0);
    await heard();
    const refused = await create(viaToken);
    expect(refused.status, refused.text).toBe(401);
  });
});

describe("kept blueprint fields of referenced entries", () => {
  // An expansion reads the referenced entry's image fields through its blueprint, kept under the
  // Blueprint table's generation: a blueprint change, by either process, reaches the next answer.
  let photoId: string;
  let cards = 0;
  const card = async () =>
    (
      await expectCreated(
        viaReader.post("/collections/cards/entries", {
          handle: `card-${cards++}`,
          title: "Card",
          person: "ada",
        }),
      )
    ).person as Record<string, unknown>;
  const withPhoto = { fields: [{ handle: "photo", type: "image" }] };

  beforeAll(async () => {
    const asset = await expectCreated(
      viaReader.post("/assets", {
        asset: { filename: "ada.txt", data: Buffer.from("Ada").toString("base64") },
      }),
    );
    photoId = asset.id as string;
    await expectCreated(
      viaReader.post("/collections", {
        name: "People",
        handle: "people",
        routing: "people/:handle",
        blueprint: { handle: "person", ...withPhoto },
      }),
    );
    await expectCreated(
      viaReader.post("/collections/people/entries", { handle: "ada", title: "Ada", photo: photoId }),
    );
    await expectCreated(
      viaReader.post("/collections", {
        name: "Cards",
        handle: "cards",
        routing: "cards/:handle",
        blueprint: { fields: [{ handle: "person", type: "entity", options: { collection: "people" } }] },
      }),
    );
  });

  it("follow blueprint changes through the other process and through this one", async () => {
    expect((await card()).photo).toMatch(/^\/assets\/.*ada\.txt$/);
    expect((await card()).photo).toMatch(/^\/assets\/.*ada\.txt$/);
    await viaWriter.put("/blueprints/person", { fields: [] });
    await heard();
    expect((await card()).photo).toBe(photoId);
    await viaReader.put("/blueprints/person", withPhoto);
    expect((await card()).photo).toMatch(/^\/assets\/.*ada\.txt$/);
  });
});

describe("READ_CACHE_MB=0", () => {
  // Answers are not kept; lookups (an account's blueprints, collections, templates) still are, in their own
  // budget (LOOKUP_CACHE_MB), and must follow every change of their tables, from either process.
  it("keeps lookups that follow renames of blueprints and collections and edits of templates", async () => {
    const uncached = await reader.twin({ READ_CACHE_MB: "0" });
    try {
      const client = api(uncached, account);
      await expectCreated(
        client.post("/templates", { template: { handle: "looked-up", html: "<p>one {{ title }}</p>" } }),
      );
      await expectCreated(
        client.post("/collections", {
          name: "Looked up",
          handle: "looked-up",
          routing: "looked-up/:handle",
          template_handle: "looked-up",
          blueprint: { handle: "looked-up-print", fields: [{ handle: "mood", type: "text" }] },
        }),
      );
      await expectCreated(
        client.post("/collections/looked-up/entries", { handle: "e", title: "E", mood: "calm" }),
      );
      const read = async () => (await client.get("/collections/looked-up/entries/e")).body;
      expect(await read()).toMatchObject({
        blueprint_handle: "looked-up-print",
        collection_handle: "looked-up",
        mood: "calm",
      });
      expect(await read()).toMatchObject({ blueprint_handle: "looked-up-print" });
      await viaWriter.put("/blueprints/looked-up-print", { handle: "renamed-print" });
      await heard();
      expect(await read()).toMatchObject({ blueprint_handle: "renamed-print", mood: "calm" });
      await viaWriter.put("/collections/looked-up", { handle: "renamed-up" });
      await heard();
      const moved = (await client.get("/collections/renamed-up/entries/e")).body;
      expect(moved).toMatchObject({ collection_handle: "renamed-up", blueprint_handle: "renamed-print" });
      await client.put("/blueprints/renamed-print", { handle: "again-print" });
      expect((await client.get("/collections/renamed-up/entries/e")).body.blueprint_handle).toBe(
        "again-print",
      );
      const page = () => siteGet(uncached, moved.content_path as string, account.domain);
      expect((await page()).text).toContain("<p>one E</p>");
      await viaWriter.put("/templates/looked-up", { html: "<p>two {{ title }}</p>" });
      await heard();
      expect((await page()).text).toContain("<p>two E</p>");
    } finally {
      await uncached.stop();
    }
  });

  // A site page reads the account's globals, navigations (with their items) and feed settings on every
  // render: kept as lookups too, they must follow writes of their tables from either process, while which
  // entries a menu links to (and whether they are visible) is read on every page.
  it("keeps a site's globals, menus and feeds as lookups that follow their writes", async () => {
    const uncached = await reader.twin({ READ_CACHE_MB: "0" });
    try {
      const client = api(uncached, account);
      const layout =
        "<nav>{% for item in navigation.menu %}[{{ item.title }} {{ item.url }}]{% endfor %}</nav>" +
        "<footer>{{ globals.site_footer.copyright }}</footer>{{ content_for_layout }}";
      await expectCreated(
        client.post("/templates", { template: { handle: "menu-layout", kind: "layout", html: layout } }),
      );
      await expectCreated(
        client.post("/templates", { template: { handle: "menu-page", html: "<h1>{{ title }}</h1>" } }),
      );
      await expectCreated(
        client.post("/templates", { template: { handle: "menu-page-2", html: "<h2>{{ title }}</h2>" } }),
      );
      await expectCreated(
        client.post("/collections", {
          name: "Menus",
          handle: "menus",
          routing: "menus/:handle",
          template_handle: "menu-page",
          layout_handle: "menu-layout",
          blueprint: { fields: [] },
        }),
      );
      await expectCreated(client.post("/collections/menus/entries", { handle: "home", title: "Home" }));
      await expectCreated(client.post("/collections/menus/entries", { handle: "linked", title: "Linked" }));
      await expectCreated(
        client.post("/globals", {
          name: "Site footer",
          handle: "site_footer",
          fields: [{ handle: "copyright", type: "text" }],
          copyright: "one",
        }),
      );
      await expectCreated(client.post("/navigations", { title: "Menu", handle: "menu" }));
      const linkedItem = await expectCreated(
        client.post("/navigations/menu/items", {
          title: "To linked",
          collection_handle: "menus",
          entry_handle: "linked",
          priority: 1,
        }),
      );
      await expectCreated(
        client.post("/navigations/menu/items", { title: "Out", url: "https://out.test/", priority: 2 }),
      );
      const page = async () => {
        const response = await siteGet(uncached, "/menus/home", account.domain);
        expect(response.status, response.text).toBe(200);
        return response.text;
      };
      const nav = async () => /<nav>(.*)<\/nav>/.exec(await page())?.[1];
      const footer = async () => /<footer>(.*)<\/footer>/.exec(await page())?.[1];
      expect(await page()).toContain("<h1>Home</h1>");
      expect(await nav()).toBe("[To linked /menus/linked][Out https://out.test/]");
      expect(await footer()).toBe("one");

      // Globals, through the other process and through this one.
      await viaWriter.put("/globals/site_footer", { copyright: "two" });
      await heard();
      expect(await footer()).toBe("two");
      await client.put("/globals/site_footer", { copyright: "three" });
      expect(await footer()).toBe("three");

      // Navigation items and navigations, through either process.
      await viaWriter.put(`/navigations/menu/items/${linkedItem.id}`, { title: "Renamed" });
      await heard();
      expect(await nav()).toBe("[Renamed /menus/linked][Out https://out.test/]");
      await expectCreated(
        viaWriter.post("/navigations/menu/items", { title: "Third", url: "/3", priority: 3 }),
      );
      await heard();
      expect(await nav()).toBe("[Renamed /menus/linked][Out https://out.test/][Third /3]");
      await client.put(`/navigations/menu/items/${linkedItem.id}`, { title: "Again" });
      expect(await nav()).toBe("[Again /menus/linked][Out https://out.test/][Third /3]");
      expect((await viaWriter.put("/navigations/menu", { handle: "elsewhere" })).status).toBe(200);
      await heard();
      expect(await nav()).toBe("");
      expect((await client.put("/navigations/elsewhere", { handle: "menu" })).status).toBe(200);
      expect(await nav()).toBe("[Again /menus/linked][Out https://out.test/][Third /3]");

      // The linked entry's visibility and path are read per page: an entry write ends no kept menu.
      await viaWriter.put("/collections/menus/entries/linked", { published: false });
      await heard();
      expect(await nav()).toBe("[Again ][Out https://out.test/][Third /3]");
      await client.put("/collections/menus/entries/linked", { published: true, handle: "moved" });
      expect(await nav()).toBe("[Again /menus/moved][Out https://out.test/][Third /3]");

      // The collection's template and its feed settings.
      await viaWriter.put("/collections/menus", { template_handle: "menu-page-2" });
      await heard();
      expect(await page()).toContain("<h2>Home</h2>");
      const feed = (path: string) => siteGet(uncached, path, account.domain);
      expect((await feed("/menus/feed.xml")).status).toBe(404);
      const enable = await request(`${writer.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation { collectionFeedUpdate(account_id: "${account.account_id}", id: "menus",
            input: { feed_enabled: true, feed_path: "menus/feed.xml", feed_title: "Menu feed" }) { feed_path } }`,
        }),
      });
      expect(enable.body.errors, enable.text).toBeUndefined();
      await heard();
      const enabled = await feed("/menus/feed.xml");
      expect(enabled.status, enabled.text).toBe(200);
      expect(enabled.text).toContain("<title>Menu feed</title>");
      expect(enabled.text).toContain("<title>Home</title>");
    } finally {
      await uncached.stop();
    }
  });

  it("turns the cache off and answers the same", async () => {
    const uncached = await reader.twin({ READ_CACHE_MB: "0" });
    try {
      const client = api(uncached, account);
      expect((await client.get("/collections/notes/entries/hello")).body.title).toBe("Hello again");
      await client.put("/collections/notes/entries/hello", { title: "Uncached" });
      expect((await client.get("/collections/notes/entries/hello")).body.title).toBe("Uncached");
      expect((await viaReader.get("/collections/notes/entries/hello")).body.title).toBe("Uncached");
    } finally {
      await uncached.stop();
    }
  });
});

describe("the cache's bounds", () => {
  it("counts keys in the budget, refuses long keys and drops the least recently used first", async () => {
    const { ReadCache } = await import("../src/schema/read-cache.ts");
    const cache = new ReadCache({ answerBytes: 16 * 1024, lookupBytes: 16 * 1024 });
    cache.set("x".repeat(2049), "value", 10, false);
    expect(cache.get("x".repeat(2049), false)).toBeUndefined();
    cache.set("a", { n: "A" }, 500, false);
    cache.set("b", "B", 500, false);
    expect(cache.get("a", false)).toEqual({ n: "A" });
    expect(Object.isFrozen(cache.get("a", false))).toBe(true);
    // Answers and lookups have budgets of their own.
    expect(cache.get("a", true)).toBeUndefined();
    // 16 KB holds about 15 entries of 1 KB (each set is refused above budget/16 = 1 KB).
    for (let i = 0; i < 40; i++) cache.set(`k${i}`, i, 900, false);
    expect(cache.get("b", false)).toBeUndefined();
    expect(cache.get("k39", false)).toBe(39);
    expect(cache.get("k0", false)).toBeUndefined();
  });
});
