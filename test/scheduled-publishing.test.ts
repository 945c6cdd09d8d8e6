// Scheduled publishing: an entry published with a published_at in the future is on
// neither the site (its page, the index page, the `query` tag, the sitemap, the feed, navigation links,
// references) nor the public content queries until that moment, and then appears on its own, with no
// write in between, through the real server with the read cache on. The management API shows it all along.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;

const contentQuery = `query ($account: ID!, $path: String!) {
  contentEntries(account_id: $account, collection: "post") { data { handle values } }
  contentEntry(account_id: $account, path: $path) { handle }
  contentNavigation(account_id: $account, handle: "main") { items { title url entry { handle } } }
}`;

async function content(target: TestServer, handle: string) {
  const response = await request(`${target.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: contentQuery,
      variables: { account: account.account_id, path: `/blog/${handle}` },
    }),
  });
  expect(response.body.errors, response.text).toBeUndefined();
  const { contentEntries, contentEntry, contentNavigation } = response.body.data;
  const entries = contentEntries.data as { handle: string; values: Record<string, unknown> }[];
  return {
    handles: entries.map((entry) => entry.handle),
    related: entries.find((entry) => entry.handle === "always")?.values.related ?? null,
    entry: contentEntry?.handle ?? null,
    link: (contentNavigation.items as { title: string; url: string | null }[]).find(
      (item) => item.title === `Link to ${handle}`,
    ),
  };
}

const site = (target: TestServer, path: string) => siteGet(target, path, account.domain);

/** A scheduled entry `seconds` ahead, which a navigation item and the entry "always" point at. */
async function schedule(handle: string, seconds: number): Promise<number> {
  // Whole milliseconds, as the database keeps them.
  const at = Date.now() + seconds * 1000;
  const created = await expectCreated(
    client.post("/collections/post/entries", {
      handle,
      title: `Title ${handle}`,
      published_at: new Date(at).toISOString(),
    }),
  );
  expect(created.published).toBe(true);
  expect(created.published_at).toBe(new Date(at).toISOString());
  expect((await client.patch("/collections/post/entries/always", { related: handle })).status).toBe(200);
  await expectCreated(
    client.post("/navigations/main/items", {
      title: `Link to ${handle}`,
      collection_handle: "post",
      entry_handle: handle,
    }),
  );
  return at;
}

/** What the management API says of the entry: listed, with its published_at. */
async function expectManaged(handle: string, at: number): Promise<void> {
  const listed = await client.get("/collections/post/entries?per_page=100");
  expect(listed.status).toBe(200);
  const found = (listed.body.data as { handle: string; published_at: string }[]).find(
    (entry) => entry.handle === handle,
  );
  expect(found?.published_at).toBe(new Date(at).toISOString());
  const one = await client.get(`/collections/post/entries/${handle}`);
  expect(one.status).toBe(200);
  expect(one.body.published_at).toBe(new Date(at).toISOString());
}

interface Poll {
  sentAt: number;
  receivedAt: number;
  page: number;
  indexed: boolean;
}

/**
 * Asks for the entry's page and its index page every 100 ms (no writes) until both show it; every
 * answer received before `at` must hide it, and it must be shown on both by `at` + 1 s.
 */
async function pollUntilShown(target: TestServer, handle: string, at: number): Promise<Poll[]> {
  const polls: Poll[] = [];
  while (Date.now() < at + 3000) {
    const sentAt = Date.now();
    const [page, index] = await Promise.all([site(target, `/blog/${handle}`), site(target, "/blog")]);
    const poll = {
      sentAt,
      receivedAt: Date.now(),
      page: page.status,
      indexed: index.text.includes(`<li>Title ${handle}</li>`),
    };
    expect(index.status).toBe(200);
    if (poll.page === 200) expect(page.text).toContain(`<h1>Title ${handle}</h1>`);
    polls.push(poll);
    if (poll.page === 200 && poll.indexed) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const poll of polls) {
    if (poll.receivedAt < at) expect({ ...poll, at }).toMatchObject({ page: 404, indexed: false });
    if (poll.sentAt > at + 1000) expect({ ...poll, at }).toMatchObject({ page: 200, indexed: true });
  }
  const shown = polls.at(-1);
  expect(shown).toMatchObject({ page: 200, indexed: true });
  expect(shown?.sentAt).toBeLessThanOrEqual(at + 1000);
  // It was asked for (and hidden) before its time: the appearance is the clock's doing.
  expect(polls.some((poll) => poll.receivedAt < at)).toBe(true);
  return polls;
}

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Scheduled");
  client = api(server, account);
  const templates = [
    {
      handle: "theme",
      kind: "layout",
      html: '<nav>{% for item in navigation.main %}<a href="{{ item.url }}">{{ item.title }}</a>{% endfor %}</nav>{{ content_for_layout }}',
    },
    { handle: "post", html: "<h1>{{ title }}</h1><p>related={{ related.title }}</p>" },
    {
      handle: "blog-index",
      html:
        "<ul>{% for e in entries %}<li>{{ e.title }}</li>{% endfor %}</ul>" +
        '{% query collection: "post" %}<p class="query">{% for e in query.entries %}[{{ e.handle }}]{% endfor %}</p>{% endquery %}',
    },
  ];
  for (const template of templates)
    await expectCreated(client.post("/templates", { template: { title: template.handle, ...template } }));
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "post",
      routing: "blog/:handle",
      template_handle: "post",
      index_routing: "blog",
      index_template_handle: "blog-index",
      blueprint: { fields: [{ handle: "related", type: "entity", options: { collection: "post" } }] },
    }),
  );
  await expectCreated(client.post("/collections/post/entries", { handle: "always", title: "Always" }));
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  const feed = await client.raw("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: `mutation { collectionFeedUpdate(account_id: "${account.account_id}", id: "post", input: {
        feed_enabled: true, feed_path: "blog/feed.xml" }) { feed_path } }`,
    }),
  });
  expect(feed.body.errors, feed.text).toBeUndefined();
});

afterAll(async () => {
  await server?.stop();
});

describe("an entry scheduled for later", () => {
  it("is hidden from the public until its time, then shown with no write in between", async () => {
    const at = await schedule("soon", 2.5);
    // Before: hidden everywhere the public looks (and these answers are now kept in the caches).
    expect((await site(server, "/blog/soon")).status).toBe(404);
    const index = await site(server, "/blog");
    expect(index.text).toContain("<li>Always</li>");
    expect(index.text).not.toContain("Title soon");
    expect(index.text).toContain('<p class="query">[always]</p>');
    expect(index.text).not.toContain("/blog/soon");
    const always = await site(server, "/blog/always");
    expect(always.text).toContain("<p>related=</p>");
    expect(always.text).toContain('<a href="">Link to soon</a>');
    const sitemap = await site(server, "/sitemap.xml");
    expect(sitemap.text).toContain("/blog/always");
    expect(sitemap.text).not.toContain("/blog/soon");
    const feed = await site(server, "/blog/feed.xml");
    expect(feed.text).toContain("<title>Always</title>");
    expect(feed.text).not.toContain("Title soon");
    expect(await content(server, "soon")).toEqual({
      handles: ["always"],
      related: null,
      entry: null,
      link: { title: "Link to soon", url: null, entry: null },
    });
    await expectManaged("soon", at);

    await pollUntilShown(server, "soon", at);

    // After: shown everywhere, still with no write.
    const shownIndex = await site(server, "/blog");
    expect(shownIndex.text).toMatch(/<p class="query">(\[always\]\[soon\]|\[soon\]\[always\])<\/p>/);
    expect((await site(server, "/blog/always")).text).toContain('<a href="/blog/soon">Link to soon</a>');
    expect((await site(server, "/blog/always")).text).toContain("<p>related=Title soon</p>");
    expect((await site(server, "/sitemap.xml")).text).toContain("/blog/soon");
    expect((await site(server, "/blog/feed.xml")).text).toContain("<title>Title soon</title>");
    const shown = await content(server, "soon");
    expect(shown.handles.sort()).toEqual(["always", "soon"]);
    expect(shown.related).toMatchObject({ handle: "soon", title: "Title soon" });
    expect(shown.entry).toBe("soon");
    expect(shown.link).toEqual({ title: "Link to soon", url: "/blog/soon", entry: { handle: "soon" } });
    await expectManaged("soon", at);
  });

  it("appears in a second server process on the same database at its time too", async () => {
    const twin = await server.twin();
    try {
      // The twin keeps its index page from before the write, which the write (another process's) must
      // end, and the one it keeps after, which the clock must end.
      expect((await site(twin, "/blog")).text).toContain("<li>Title soon</li>");
      const at = await schedule("later", 2);
      expect((await site(twin, "/blog")).text).not.toContain("Title later");
      expect((await content(twin, "later")).entry).toBeNull();
      await pollUntilShown(twin, "later", at);
      expect((await content(twin, "later")).entry).toBe("later");
    } finally {
      await twin.stop();
    }
  });
});
