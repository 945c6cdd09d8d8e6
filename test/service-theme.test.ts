// A theme written only from the hosted service's theme and import guides (test/fixtures/service-theme:
// the documented layout, header and footer partials given `navigation` and `site` explicitly, date-routed
// posts read as `posts.*`, a paginated index, root pages with an `index` home page, a form with labels and
// errors, `query` blocks), set up with the content those guides describe and rendered page by page on the
// embedded database and on PostgreSQL. Whitespace is squeezed before comparing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { type SiteResponse, saveThemeFolder, siteGet, siteRequest } from "./helpers/site.ts";

const themeDir = new URL("./fixtures/service-theme/", import.meta.url);
const kinds: Record<string, string> = { theme: "layout", header: "partial", footer: "partial" };

let server: TestServer;
let account: TestAccount;
let client: Api;

const squeeze = (text: string) => text.replace(/\s+/g, " ").replace(/> </g, "><");
const page = async (path: string) => {
  const response = await siteGet(server, path, account.domain);
  return { ...response, html: squeeze(response.text) };
};
const submit = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
  const response: SiteResponse = await siteRequest(server, "/forms/contact/submit", account.domain, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { ...response, html: squeeze(response.text) };
};

const posts = [
  { handle: "hello", title: "Hello", published_at: "2024-06-15T10:00:00Z", category: "news" },
  { handle: "second", title: "Second steps", published_at: "2024-06-20T10:00:00Z", category: "guides" },
  { handle: "third", title: "Third time", published_at: "2024-07-01T10:00:00Z", category: "news" },
];

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Acme");
  client = api(server, account);
  await saveThemeFolder(client, themeDir, kinds);
  // The import guide's collections: date-routed posts, root-routed pages.
  await expectCreated(
    client.post("/collections", {
      name: "Blog Posts",
      handle: "posts",
      routing: ":year/:month/:day/:handle",
      orderable: "descending",
      template_handle: "post",
      layout_handle: "theme",
      index_routing: "blog",
      index_template_handle: "posts-index",
      index_per_page: 2,
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "excerpt", type: "text" },
          { handle: "category", type: "text" },
        ],
      },
    }),
  );
  for (const post of posts) {
    await expectCreated(
      client.post("/collections/posts/entries", { ...post, body: `<p>The body of ${post.title}.</p>` }),
    );
  }
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "draft",
      title: "A draft",
      published: false,
      published_at: "2024-07-02T10:00:00Z",
      category: "news",
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Pages",
      handle: "page",
      routing: ":handle",
      root_routing: true,
      template_handle: "page",
      blueprint: { fields: [{ handle: "body", type: "rich_text" }] },
    }),
  );
  for (const entry of [
    { handle: "index", title: "Welcome", template_handle: "index", body: "<p>We make anvils.</p>" },
    { handle: "about", title: "About us", body: "<p>Founded in 1949.</p>" },
    { handle: "contact", title: "Contact us", template_handle: "contact" },
  ]) {
    await expectCreated(client.post("/collections/page/entries", entry));
  }
  await expectCreated(
    // The service's `site` global: its fields `title` and `description` (THEME_DOCUMENTATION.md).
    client.post("/globals", {
      name: "Site settings",
      handle: "site",
      fields: [
        { handle: "title", type: "text" },
        { handle: "description", type: "text" },
      ],
      title: "Acme Anvils",
      description: "Anvils since 1949",
    }),
  );
  await expectCreated(client.post("/navigations", { title: "Main Menu", handle: "main" }));
  for (const item of [
    { title: "Home", url: "/" },
    { title: "Blog", url: "/blog" },
    { title: "About", collection_handle: "page", entry_handle: "about" },
  ]) {
    await expectCreated(client.post("/navigations/main/items", item));
  }
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: {
        fields: [
          { handle: "name", type: "text", options: { required: true } },
          { handle: "email", type: "text", options: { required: true, placeholder: "you@example.com" } },
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
      success_message: "Thanks!",
    }),
  );
});
afterAll(() => server?.stop());

/** The documented layout around `main`, with the site global and the menu in the partials. */
function expectLayout(html: string, contentPath: string) {
  expect(html).toMatch(/^<!doctype html><html><head><title>[^<]+ \| Acme<\/title>/);
  expect(html).toContain(`<meta name="content_path" content="${contentPath}">`);
  expect(html).toContain(
    '<link href="/assets/application.css" rel="stylesheet" type="text/css" media="all"><script src="/assets/application.js"></script></head>',
  );
  expect(html).toContain(
    '<body><header><a class="brand" href="/">Acme Anvils</a><p class="tagline">Anvils since 1949</p>' +
      '<nav><a href="/">Home</a><a href="/blog">Blog</a><a href="/about">About</a></nav></header>',
  );
  expect(html).toContain(
    '<footer>&copy; Acme Anvils · Anvils since 1949</footer><link rel="stylesheet" href="/cms/cms.css"><script type="module" src="/cms/cms.js"></script></body></html>',
  );
}

describe("a theme written for the hosted service", () => {
  it("home: the `index` entry of the root-routed pages, with the documented query blocks", async () => {
    const { status, html } = await page("/");
    expect(status).toBe(200);
    expectLayout(html, "index");
    expect(html).toContain(
      '<main><h1>Welcome</h1><img src="/assets/hero.jpg" alt="Hero image" class="w-full"><div class="content"><p>We make anvils.</p></div>',
    );
    // query's defaults: newest published first (published_at desc), 25 a page unless per_page says.
    expect(html).toContain(
      '<ul><li><a href="/2024/07/01/third">Third time</a></li><li><a href="/2024/06/20/second">Second steps</a></li></ul>' +
        '<p class="total">3 posts, page 1 of 2</p>',
    );
    // filter: {fields: [{path, op, value}]}, drafts left out.
    expect(html).toContain("<h2>News</h2><ul><li>Hello</li><li>Third time</li></ul>");
  });

  it("a root page and a date-routed post, read as `page.*` and `posts.*`", async () => {
    const about = await page("/about");
    expect(about.status).toBe(200);
    expectLayout(about.html, "about");
    expect(about.html).toContain(
      '<main><article><h1>About us</h1><div class="content"><p>Founded in 1949.</p></div><p class="path">/about</p></article></main>',
    );
    const post = await page("/2024/06/20/second");
    expect(post.status).toBe(200);
    expectLayout(post.html, "2024/06/20/second");
    expect(post.html).toContain(
      '<main><article><h1>Second steps</h1><time>June 20, 2024</time><div class="content"><p>The body of Second steps.</p></div></article></main>',
    );
  });

  it("the blog index: paginate.items, the page fields and /page/N links", async () => {
    const first = await page("/blog");
    expect(first.status).toBe(200);
    expectLayout(first.html, "blog");
    expect(first.html).toContain(
      '<main><h1>Blog</h1><a href="/2024/07/01/third">Third time</a><a href="/2024/06/20/second">Second steps</a>' +
        '<p class="pages">Page 1 of 2 (3 posts)</p><a class="older" href="/blog/page/2">Older</a>' +
        '<span class="page current">1</span><span class="page"><a href="/blog/page/2">2</a></span><span class="next"><a href="/blog/page/2">Next &raquo;</a></span></main>',
    );
    for (const path of ["/blog/page/2", "/blog?page=2"]) {
      const second = await page(path);
      expect(second.status, path).toBe(200);
      expect(second.html).toContain(
        '<main><h1>Blog</h1><a href="/2024/06/15/hello">Hello</a>' +
          '<p class="pages">Page 2 of 2 (3 posts)</p><a class="newer" href="/blog">Newer</a>' +
          '<span class="prev"><a href="/blog">&laquo; Previous</a></span><span class="page"><a href="/blog">1</a></span><span class="page current">2</span></main>',
      );
    }
    expect((await page("/blog/page/3")).status).toBe(404);
  });

  it("the contact page: labels, ids and names from form.field, no errors yet", async () => {
    const { status, html } = await page("/contact");
    expect(status).toBe(200);
    expectLayout(html, "contact");
    expect(html).toContain(
      '<form method="post" action="/cms/contact/submit" enctype="multipart/form-data" class="cms-form space-y-4" id="form_contact" data-controller="collection-form" data-collection-form-target="form">',
    );
    expect(html).not.toContain("Please correct the errors below.");
    expect(html).toContain(
      '<label for="form_contact_name">Name</label><input type="text" id="form_contact_name" name="fields[name]" value="" required >',
    );
    expect(html).toContain(
      '<label for="form_contact_email">Email</label><input type="email" id="form_contact_email" name="fields[email]" placeholder="you@example.com" value="" required>',
    );
    expect(html).toContain(
      '<label for="form_contact_message">Message</label><textarea id="form_contact_message" name="fields[message]"></textarea><button type="submit" data-collection-form-target="submit">Submit</button></form>',
    );
  });

  it("a failed submission without JavaScript shows the page again with per-field errors and the values sent", async () => {
    const referer = `http://${account.domain}/contact`;
    const failed = await submit(
      { "fields[name]": "Wile E.", "fields[email]": "", "fields[message]": "One anvil, please" },
      { referer },
    );
    expect(failed.status).toBe(422);
    expect(failed.headers["content-type"]).toMatch(/^text\/html/);
    expectLayout(failed.html, "contact");
    expect(failed.html).toContain(
      '<p class="text-red-600">Please correct the errors below.</p><ul class="errors"><li>Email is required</li></ul>',
    );
    expect(failed.html).toContain('id="form_contact_name" name="fields[name]" value="Wile E." required >');
    expect(failed.html).toContain(
      'name="fields[email]" placeholder="you@example.com" value="" required><p class="error">Email is required</p>',
    );
    expect(failed.html).toContain('name="fields[message]">One anvil, please</textarea>');
    // Nothing was saved; a script still gets the JSON error, and a post from elsewhere the plain list.
    expect((await client.get("/collections/messages/entries")).body.data).toEqual([]);
    const json = await submit({ "fields[name]": "Wile E." }, { referer, accept: "application/json" });
    expect(json.status).toBe(422);
    expect(JSON.parse(json.text).details).toEqual([{ path: "email", message: "is required" }]);
    const elsewhere = await submit(
      { "fields[name]": "Wile E." },
      { referer: "http://elsewhere.test/contact" },
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.html).toContain("<h1>Please check the form</h1><ul><li>email: is required</li></ul>");
  });

  it("a complete submission is saved and answered with a redirect", async () => {
    const done = await submit(
      { "fields[name]": "Wile E.", "fields[email]": "wile@acme.test", "fields[message]": "Hi" },
      { referer: `http://${account.domain}/contact` },
    );
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`http://${account.domain}/contact`);
    const saved = (await client.get("/collections/messages/entries")).body.data as Record<string, unknown>[];
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ published: false });
    // Without a success message of its own, the service's.
    await expectCreated(
      client.post("/forms", {
        title: "Quiet",
        handle: "quiet",
        collection_handle: "messages",
        blueprint_handle: "messages",
      }),
    );
    const quiet = await siteRequest(server, "/forms/quiet/submit", account.domain, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ "fields[name]": "W", "fields[email]": "w@acme.test" }).toString(),
    });
    expect(JSON.parse(quiet.text)).toEqual({ ok: true, message: "Thank you for your submission!" });
  });

  it("the options the previewer reads: query's published: and operators, cms_scripts', paginate's window_size, doc and locale", async () => {
    const html = [
      '{% query collection: "posts", published: false, order_by: "title", order_dir: "asc" %}<p class="all">{% for p in query.results %}{{ p.handle }} {% endfor %}</p>{% endquery %}',
      '{% query collection: "posts", filter: {fields: [{path: "category", op: "ne", value: "news"}]} %}<p class="ne">{% for p in query.entries %}{{ p.handle }} {% endfor %}</p>{% endquery %}',
      '{% assign wanted = "Th" %}{% query collection: "posts", filter: {fields: [{path: "title", op: "starts_with", value: wanted}, {path: "category", op: "contains", value: "new"}]} %}<p class="starts">{% for p in query.entries %}{{ p.handle }} {% endfor %}</p>{% endquery %}',
      '{% query collection: "posts", filter: {fields: [{path: "no_such_field", op: "eq", value: "x"}]} %}<p class="unknown">{{ query.total }}</p>{% endquery %}',
      '{% query collection: "posts", filter: {fields: [{path: "handle", op: "ends_with", value: "OND"}]} %}<p class="ends">{% for p in query.entries %}{{ p.handle }} {% endfor %}</p>{% endquery %}',
      '{% query collection: "posts", filter: {fields: [{path: "category", op: "ends_with", value: "ws"}]} %}<p class="ends-value">{{ query.total }}</p>{% endquery %}',
      '{% query collection: "posts", filter: {fields: [{path: "category", op: "ends_with", value: "%s"}]} %}<p class="ends-wild">{{ query.total }}</p>{% endquery %}',
      '<p class="css">{% cms_scripts js: false %}</p><p class="js">{% cms_scripts css: false %}</p>',
      "{% doc %}Renders extras. @param {string} title @example {% render 'extras', title: x %}{% enddoc %}<p class=\"locale\">{% locale %}</p>",
      '{% assign letters = "a,b,c,d,e,f,g,h,i" | split: "," %}{% paginate letters by 1 window_size: 2 %}<p class="window">{% for part in paginate.parts %}{{ part.title }}{% unless part.is_link %}*{% endunless %} {% endfor %}</p>{% endpaginate %}',
    ].join("\n");
    await expectCreated(client.post("/templates", { template: { handle: "extras", title: "Extras", html } }));
    await expectCreated(
      client.post("/collections/page/entries", {
        handle: "extras",
        title: "Extras",
        template_handle: "extras",
      }),
    );
    const { status, text } = await siteGet(server, "/extras", account.domain);
    expect(status).toBe(200);
    // `published: false` lists drafts on the service; here the public site shows published entries only.
    expect(text).toContain('<p class="all">hello second third </p>');
    expect(text).toContain('<p class="ne">second </p>');
    expect(text).toContain('<p class="starts">third </p>');
    expect(text).toContain('<p class="unknown">0</p>');
    expect(text).toContain('<p class="ends">second </p>');
    // A blueprint value, ignoring case; a wildcard is a literal character (the scan on the embedded database).
    expect(text).toContain('<p class="ends-value">2</p>');
    expect(text).toContain('<p class="ends-wild">0</p>');
    expect(text).toContain('<p class="css"><link rel="stylesheet" href="/cms/cms.css"></p>');
    expect(text).toContain('<p class="js"><script type="module" src="/cms/cms.js"></script></p>');
    expect(text).toContain('\n<p class="locale">en-us</p>');
    expect(text).toContain('<p class="window">1* 2 &hellip;* 9 </p>');
    // `/page/N` after an entry's path is page N of its lists.
    const fifth = await siteGet(server, "/extras/page/5", account.domain);
    expect(fifth.text).toContain('<p class="window">1 &hellip;* 4 5* 6 &hellip;* 9 </p>');
  });

  it("a path that names no page is 404", async () => {
    const missing = await page("/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("Not found\n");
  });
});
