// The starter theme (themes/starter) installed with `cms theme install` into a new account, the README's content
// set up over REST, and every kind of page it has fetched by Host: home, the blog index and its second
// page, a post, a page, the contact form and the 404 page, on the embedded database and on PostgreSQL.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { type CliResult, cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet, siteRequest } from "./helpers/site.ts";

const themeDir = new URL("../themes/starter/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("theme.json", themeDir), "utf8")) as {
  templates: { handle: string; kind: string }[];
};

/** `cms theme install`, as a person runs it, with --json. */
const install = (accountId: string, name: string): Promise<CliResult> =>
  cms(server, ["theme", "install", "--account", accountId, "--name", name, "--json"]);

let server: TestServer;
let account: TestAccount;
let client: Api;
const page = (path: string) => siteGet(server, path, account.domain);
const templates = async () =>
  ((await client.get("/templates")).body.data as { id: string; handle: string; kind: string }[]).map(
    ({ id, handle, kind }) => ({ id, handle, kind }),
  );

const posts = [
  { handle: "hello-world", title: "Hello, world", published_at: "2024-05-01T09:00:00Z", category: "news" },
  { handle: "second-post", title: "Second post", published_at: "2024-05-08T09:00:00Z", category: "guides" },
  { handle: "tips", title: "Tips & <tricks>", published_at: "2024-05-15T09:00:00Z", category: "guides" },
  { handle: "newest", title: "The newest one", published_at: "2024-05-22T09:00:00Z", category: "news" },
];

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Acme");
  client = api(server, account);
  const installed = await install(account.account_id, "starter");
  expect(installed.code, installed.stderr).toBe(0);

  await expectCreated(
    client.post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
      orderable: "descending",
      template_handle: "post",
      index_routing: "blog",
      index_template_handle: "blog-index",
      index_per_page: 2,
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "category", type: "enumerate", options: { enumerations: ["news", "guides"] } },
          { handle: "related", type: "entity" },
        ],
      },
    }),
  );
  for (const post of posts) {
    await expectCreated(
      client.post("/collections/blog/entries", {
        ...post,
        body: `<p>The body of ${post.handle}, with enough words to make a summary.</p>`,
        ...(post.handle === "second-post" && { related: "hello-world" }),
      }),
    );
  }
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
  for (const entry of [
    { handle: "index", title: "Welcome to Acme", template_handle: "home", body: "<p>We make anvils.</p>" },
    { handle: "about", title: "About us", body: "<p>Founded in 1949 in the desert.</p>" },
    { handle: "contact", title: "Contact us", template_handle: "contact", body: "<p>Write to us.</p>" },
  ]) {
    await expectCreated(client.post("/collections/pages/entries", entry));
  }
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: {
        fields: [
          { handle: "name", type: "text", options: { required: true } },
          { handle: "email", type: "text", options: { required: true } },
          { handle: "message", type: "text", options: { input_type: "textarea" } },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/forms", {
      title: "Contact",
      handle: "contact",
      collection_handle: "messages",
      blueprint_handle: "messages",
      success_message: "Thanks, we got it!",
      honeypot_enabled: true,
    }),
  );
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  for (const item of [
    { title: "Blog", url: "/blog" },
    { title: "About", collection_handle: "pages", entry_handle: "about" },
    { title: "Contact", collection_handle: "pages", entry_handle: "contact" },
  ]) {
    await expectCreated(client.post("/navigations/main/items", item));
  }
  await expectCreated(
    client.post("/globals", {
      name: "Footer",
      handle: "footer",
      fields: [{ handle: "copyright", type: "text" }],
      copyright: "© Acme Corporation",
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The layout around every page: language, viewport, skip link, the menu, the footer, no outside files. */
function expectLayout(text: string): void {
  expect(text).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(text).toContain('<a class="skip-link" href="#main">Skip to content</a>');
  expect(text).toContain('<main id="main" class="wrap" tabindex="-1">');
  expect(text).toContain('<nav class="site-nav" aria-label="Main">');
  expect(text).toMatch(/<a href="\/blog"[^>]*>Blog<\/a>/);
  expect(text).toMatch(/<a href="\/about"[^>]*>About<\/a>/);
  expect(text).toContain("<p>© Acme Corporation</p>");
  expect(text).toContain("@media (prefers-color-scheme: dark)");
  // Only the canonical link names an absolute URL: no stylesheet, script, font or image from elsewhere.
  const outside = [...text.matchAll(/<[^>]+(?:src|href)="(?:https?:)?\/\/[^>]*>/g)].map((m) => m[0]);
  expect(outside.every((tag) => tag.startsWith('<link rel="canonical"'))).toBe(true);
  // None of the test fixture's wording.
  expect(text).not.toMatch(/ rated |prev=|next=/);
}

/** The post titles of a list of post cards, in order. */
const cardTitles = (text: string) =>
  [...text.matchAll(/<h[23]><a href="[^"]+">([^<]+)<\/a><\/h[23]>/g)].map((m) => m[1]);

describe("installTheme", () => {
  it("saves every template of the manifest with its kind, and updates them on a second install", async () => {
    const first = await templates();
    expect(first.map(({ handle, kind }) => ({ handle, kind }))).toEqual(
      [...manifest.templates]
        .sort((a, b) => a.handle.localeCompare(b.handle))
        .map(({ handle, kind }) => ({ handle, kind })),
    );
    expect(first.find((t) => t.handle === "theme")?.kind).toBe("layout");
    expect(first.find((t) => t.handle === "post-card")?.kind).toBe("partial");

    // A changed copy is brought back; nothing is duplicated, the IDs stay.
    expect((await client.put("/templates/page", { template: { html: "<p>changed</p>" } })).status).toBe(200);
    const again = await install(account.account_id, "starter");
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ installed: manifest.templates.map((t) => t.handle) });
    expect(await templates()).toEqual(first);
    const pageTemplate = (await client.get("/templates/page")).body;
    expect(pageTemplate.html).toBe(readFileSync(new URL("page.liquid", themeDir), "utf8"));
  });

  it("names the themes there are when asked for another, and refuses an unknown account", async () => {
    const unknown = await install(account.account_id, "fancy");
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr.trim()).toBe("cms: no theme named 'fancy'; the themes are: starter");
    const nobody = await install("acct_nobody", "starter");
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.trim()).toMatch(/^cms: no account acct_nobody/);
  });
});

describe("the starter theme's pages", () => {
  it("home: the root entry's title and body, then the three newest posts", async () => {
    const home = await page("/");
    expect(home.status).toBe(200);
    expectLayout(home.text);
    expect(home.text).toContain("<title>Welcome to Acme | Acme</title>");
    expect(home.text).toContain('<a class="site-name" href="/" aria-current="page">Acme</a>');
    expect(home.text).toContain("<h1>Welcome to Acme</h1>");
    expect(home.text).toContain('<div class="lead"><p>We make anvils.</p></div>');
    expect(home.text).toContain('<h2 id="latest-posts">Latest posts</h2>');
    expect(cardTitles(home.text)).toEqual(["The newest one", "Tips &amp; &lt;tricks&gt;", "Second post"]);
    expect(home.text).toContain('<time datetime="2024-05-22T09:00:00.000Z">May 22, 2024</time> · news');
    expect(home.text).toContain("<p>The body of newest, with enough words to make a summary.</p>");
    expect(home.text).toContain('<a href="/blog">All 4 posts →</a>');
  });

  it("blog index: newest first, two a page, with links between the pages", async () => {
    const first = await page("/blog");
    expect(first.status).toBe(200);
    expectLayout(first.text);
    expect(first.text).toContain("<h1>Blog</h1>");
    expect(cardTitles(first.text)).toEqual(["The newest one", "Tips &amp; &lt;tricks&gt;"]);
    expect(first.text).toContain('<nav class="pagination" aria-label="Pages of posts">');
    expect(first.text).toContain('<span class="current" aria-current="page">Page 1 of 2</span>');
    expect(first.text).toContain('<a href="/blog/page/2" rel="next">Older posts →</a>');
    expect(first.text).not.toContain('rel="prev"');
    expect(first.text).toMatch(/<a href="\/blog" aria-current="page">Blog<\/a>/);

    const second = await page("/blog/page/2");
    expect(second.status).toBe(200);
    expect(cardTitles(second.text)).toEqual(["Second post", "Hello, world"]);
    expect(second.text).toContain('<span class="current" aria-current="page">Page 2 of 2</span>');
    expect(second.text).toContain('<a href="/blog" rel="prev">← Newer posts</a>');
    expect(second.text).not.toContain('rel="next"');
    expect((await page("/blog/page/3")).status).toBe(404);
  });

  it("post: title, date, category, body and the related post", async () => {
    const post = await page("/blog/second-post");
    expect(post.status).toBe(200);
    expectLayout(post.text);
    expect(post.text).toContain("<h1>Second post</h1>");
    expect(post.text).toContain(
      '<p class="meta"><time datetime="2024-05-08T09:00:00.000Z">May 8, 2024</time> · guides</p>',
    );
    expect(post.text).toContain(
      '<div class="prose"><p>The body of second-post, with enough words to make a summary.</p></div>',
    );
    expect(post.text).toContain('<h2 id="related-heading">Related</h2>');
    expect(post.text).toContain('<a href="/blog/hello-world">Hello, world</a>');
    expect(post.text).toContain('<a href="/blog">← All posts</a>');
    // Titles are text, not markup.
    const tips = await page("/blog/tips");
    expect(tips.text).toContain("<h1>Tips &amp; &lt;tricks&gt;</h1>");
    expect(tips.text).not.toContain("related-heading");
  });

  it("page: its title and body, marked current in the menu", async () => {
    const about = await page("/about");
    expect(about.status).toBe(200);
    expectLayout(about.text);
    expect(about.text).toContain(
      '<article class="page">\n  <h1>About us</h1>\n  <div class="prose"><p>Founded in 1949 in the desert.</p></div>',
    );
    expect(about.text).toContain('<a href="/about" aria-current="page">About</a>');
  });

  it("contact: the form, each control with its label", async () => {
    const contact = await page("/contact");
    expect(contact.status).toBe(200);
    expectLayout(contact.text);
    expect(contact.text).toContain("<h1>Contact us</h1>");
    expect(contact.text).toContain('<div class="prose"><p>Write to us.</p></div>');
    expect(contact.text).toContain(
      '<form method="post" action="/cms/contact/submit" enctype="multipart/form-data" class="cms-form contact-form" id="contact-form" data-controller="collection-form" data-collection-form-target="form">',
    );
    expect(contact.text).toContain(
      '<label for="contact-name">Name <span class="required">(required)</span></label>',
    );
    expect(contact.text).toContain(
      '<input type="text" id="contact-name" name="fields[name]" required autocomplete="name">',
    );
    expect(contact.text).toContain(
      '<input type="email" id="contact-email" name="fields[email]" required autocomplete="email">',
    );
    expect(contact.text).toContain('<label for="contact-message">Message</label>');
    expect(contact.text).toContain(
      '<textarea id="contact-message" name="fields[message]" rows="6"></textarea>',
    );
    expect(contact.text).toContain('<button type="submit">Send message</button>');
    // Every control a visitor fills in has a label naming it.
    const ids = [...contact.text.matchAll(/<(?:input|textarea|select) [^>]*id="([^"]+)"/g)].map((m) => m[1]);
    const labelled = [...contact.text.matchAll(/<label [^>]*for="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["contact-name", "contact-email", "contact-message"]);
    expect(labelled).toEqual(ids);
  });

  it("contact, refused without JavaScript: the page again with the error and the values sent", async () => {
    const refused = await siteRequest(server, "/cms/contact/submit", account.domain, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        referer: `http://${account.domain}/contact`,
      },
      body: new URLSearchParams({ "fields[name]": "Wile <E.>", "fields[message]": "Hi & bye" }).toString(),
    });
    expect(refused.status).toBe(422);
    expectLayout(refused.text);
    expect(refused.text).toContain(
      '<p class="form-errors" role="alert">Please check the form: Email is required.</p>',
    );
    expect(refused.text).toContain(
      '<input type="text" id="contact-name" name="fields[name]" required autocomplete="name" value="Wile &lt;E.&gt;">',
    );
    expect(refused.text).toContain(
      '<input type="email" id="contact-email" name="fields[email]" required aria-invalid="true" autocomplete="email">',
    );
    expect(refused.text).toContain(
      '<textarea id="contact-message" name="fields[message]" rows="6">Hi &amp; bye</textarea>',
    );
  });

  it("a path with no page: the theme's 404 page inside the layout", async () => {
    const missing = await page("/no/such/page");
    expect(missing.status).toBe(404);
    expectLayout(missing.text);
    expect(missing.text).toContain("<title>Not found | Acme</title>");
    expect(missing.text).toContain("<h1>Page not found</h1>");
    expect(missing.text).toContain("There is no page at <code>/no/such/page</code>.");
    expect(missing.text).toContain('<a href="/">Go to the home page</a>');
  });
});
