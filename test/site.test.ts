// The public site over HTTP: a small blog theme (test/fixtures/blog-theme) set up through the REST API and
// rendered by Host, on the embedded database and on PostgreSQL.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { saveThemeFolder, siteGet } from "./helpers/site.ts";

const themeDir = new URL("./fixtures/blog-theme/", import.meta.url);
const kinds: Record<string, string> = { theme: "layout", byline: "partial" };

let server: TestServer;
let acme: TestAccount;
let client: Api;
let other: Api;
const page = (path: string, headers?: Record<string, string>) => siteGet(server, path, acme.domain, headers);

/** A form post to the site, as a browser (or a script, with Accept: application/json) sends it. */
async function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const { request } = await import("node:http");
  const body = new URLSearchParams(form).toString();
  const { port } = new URL(server.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          headers: { host: acme.domain, "content-type": "application/x-www-form-urlencoded", ...headers },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    },
  );
}

const messages = async () =>
  (await client.get("/collections/messages/entries")).body.data as Record<string, unknown>[];

beforeAll(async () => {
  server = await startServer();
  [acme, other] = await Promise.all([
    createAccount(server, "Acme"),
    createAccount(server, "Other").then((a) => api(server, a)),
  ]).then(([a, o]) => [a, o] as [TestAccount, Api]);
  client = api(server, acme);
  await saveThemeFolder(client, themeDir, kinds);
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "post",
      routing: "blog/:handle",
      template_handle: "post",
      index_routing: "blog",
      index_template_handle: "blog-index",
      index_per_page: 2,
      schema_type: "BlogPosting",
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "rating", type: "number" },
          { handle: "author", type: "entity", options: { collection: "pages" } },
        ],
      },
    }),
  );
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
    client.post("/collections/pages/entries", { handle: "index", title: "Home", body: "<p>Welcome</p>" }),
  );
  await expectCreated(client.post("/collections/pages/entries", { handle: "jane", title: "Jane Doe" }));
  await expectCreated(
    client.post("/collections/pages/entries", { handle: "secret", title: "Secret", published: false }),
  );
  for (const n of [1, 2, 3]) {
    await expectCreated(
      client.post("/collections/post/entries", {
        handle: `p${n}`,
        title: `Post ${n}`,
        body: `<p>Body ${n}</p>`,
        rating: n,
        position: n,
        ...(n === 1 && { author: "jane" }),
        ...(n === 2 && { author: "secret" }),
      }),
    );
  }
  await expectCreated(
    client.post("/collections/post/entries", { handle: "draft", title: "Draft", published: false }),
  );
  await expectCreated(
    client.post("/globals", {
      name: "Footer",
      handle: "footer",
      fields: [{ handle: "copyright", type: "text" }],
      copyright: "(c) Acme",
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: {
        fields: [
          { handle: "name", type: "text", options: { required: true } },
          { handle: "email", type: "text", options: { required: true } },
          { handle: "message", type: "text" },
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
      redirect_url: "/thanks",
      success_message: "Thanks!",
      honeypot_enabled: true,
      spam_check_enabled: true,
    }),
  );
  await expectCreated(
    client.post("/collections/pages/entries", {
      handle: "contact",
      title: "Contact us",
      template_handle: "contact",
    }),
  );
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  const first = await expectCreated(
    client.post("/navigations/main/items", { title: "First", collection_handle: "post", entry_handle: "p1" }),
  );
  await expectCreated(
    client.post("/navigations/main/items", { title: "Docs", url: "https://docs.test/", parent_id: first.id }),
  );
});
afterAll(() => server?.stop());

describe("entry pages", () => {
  it("renders the entry's template inside the theme layout with its fields, globals, navigation and a partial", async () => {
    const response = await page("/blog/p1");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    const html = response.text;
    expect(html).toContain("<h1>Post 1</h1>");
    expect(html).toContain('<div class="body"><p>Body 1</p></div>');
    expect(html).toContain('<p class="meta">p1 rated 1 at /blog/p1</p>');
    expect(html).toContain('<p class="author">Jane Doe</p>');
    // The partial sees only what is passed to it.
    expect(html).toContain('<small class="byline">by Post 1</small>');
    expect(html).toContain('<a href="/blog/p1">First</a><a class="child" href="https://docs.test/">Docs</a>');
    expect(html).toContain("<footer>(c) Acme · Footer</footer>");
  });

  it("puts SEO meta, the canonical URL, JSON-LD of the schema type and the CMS assets in content_for_header", async () => {
    const { text } = await page("/blog/p1");
    expect(text).toContain("<title>Post 1 | Acme</title>");
    expect(text).toContain(`<link rel="canonical" href="http://${acme.domain}/blog/p1">`);
    const jsonLd = JSON.parse(
      /<script type="application\/ld\+json">(.*?)<\/script>/.exec(text)?.[1] ?? "null",
    );
    expect(jsonLd).toMatchObject({
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: "Post 1 | Acme",
    });
    expect(text).toContain('<link rel="stylesheet" href="/cms/cms.css">');
    expect(text).toContain('<script type="module" src="/cms/cms.js"></script>');
  });

  it("never shows an unpublished entry, nor one referenced by a published entry", async () => {
    expect((await page("/blog/draft")).status).toBe(404);
    expect((await page("/secret")).status).toBe(404);
    const p2 = await page("/blog/p2");
    expect(p2.status).toBe(200);
    expect(p2.text).not.toContain("Secret");
    expect(p2.text).not.toContain('class="author"');
  });

  it("serves the root entry of the root_routing collection at /", async () => {
    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.text).toContain('<section class="page"><h1>Home</h1><p>Welcome</p></section>');
    expect(home.text).toContain('"@type":"WebPage"');
  });
});

describe("index pages", () => {
  it("lists published entries in site order, index_per_page a page, with pagination", async () => {
    const first = await page("/blog");
    expect(first.status).toBe(200);
    expect(first.text).toContain(
      '<ul class="posts"><li><a href="/blog/p1">Post 1</a></li><li><a href="/blog/p2">Post 2</a></li></ul>',
    );
    expect(first.text).toContain('<p class="pages">1/2 of 3 prev= next=/blog/page/2</p>');
    const second = await page("/blog/page/2");
    expect(second.text).toContain('<ul class="posts"><li><a href="/blog/p3">Post 3</a></li></ul>');
    expect(second.text).toContain('<p class="pages">2/2 of 3 prev=/blog next=</p>');
    expect((await page("/blog?page=2")).text).toContain("2/2 of 3");
    expect((await page("/blog/page/3")).status).toBe(404);
  });

  it("names each page by its page link in the canonical URL; pages count from 1", async () => {
    const canonical = (text: string) => /<link rel="canonical" href="([^"]*)">/.exec(text)?.[1];
    for (const [path, named] of [
      ["/blog", "/blog"],
      ["/blog/page/1", "/blog"],
      ["/blog?page=1", "/blog"],
      ["/blog/page/2", "/blog/page/2"],
      ["/blog?page=2", "/blog/page/2"],
    ] as const) {
      const shown = await page(path);
      expect(shown.status, path).toBe(200);
      expect(canonical(shown.text), path).toBe(`http://${acme.domain}${named}`);
    }
    for (const path of ["/blog/page/0", "/blog/page/00"]) {
      const shown = await page(path);
      expect(shown.status, path).toBe(404);
      expect(shown.text, path).not.toContain('<ul class="posts">');
    }
  });
});

describe("forms on the site", () => {
  it("renders form_for with the action, hidden inputs, the honeypot and form.fields", async () => {
    const { text } = await page("/contact");
    expect(text).toContain(
      '<form method="post" action="/cms/contact/submit" enctype="multipart/form-data" class="cms-form contact" id="contact-form" data-controller="collection-form" data-collection-form-target="form">',
    );
    expect(text).toContain('<input type="hidden" name="redirect_url" value="/thanks">');
    expect(text).toContain('<input type="hidden" name="success_message" value="Thanks!">');
    expect(text).toContain('name="website"');
    expect(text).toContain('<label>Name<input name="fields[name]" type="text" required></label>');
    expect(text).toContain('<label>Message<input name="fields[message]" type="text"></label>');
    expect(text).toContain("</form>");
  });

  it("stores a submission as an unpublished entry and redirects (303) to a same-site path only", async () => {
    const response = await post("/cms/contact/submit", {
      "fields[name]": "Ann",
      "fields[email]": "ann@example.test",
      message: "Hello there",
      redirect_url: "https://evil.test/",
    });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe("/thanks");
    const [stored] = await messages();
    expect(stored).toMatchObject({
      published: false,
      name: "Ann",
      email: "ann@example.test",
      message: "Hello there",
    });
    expect(stored?.handle).toMatch(/^entry_\d{10}_[0-9a-f]{8}$/);
    expect(stored?.title).toMatch(/^Contact - [A-Z][a-z]+ \d{2}, \d{4} at \d{2}:\d{2} (AM|PM)$/);
    const ownRedirect = await post("/forms/contact/submit", {
      "fields[name]": "Bo",
      "fields[email]": "b@x.test",
      redirect_url: "/after",
    });
    expect(ownRedirect.headers.location).toBe("/after");
    // Characters a header cannot carry are percent-encoded; a path with a tab or newline (which browsers
    // drop, making "/\t/evil.test" the host "//evil.test") is not followed.
    const unicode = await post("/cms/contact/submit", {
      "fields[name]": "Di",
      "fields[email]": "d@x.test",
      redirect_url: "/danke schön/✓",
    });
    expect(unicode.status, unicode.text).toBe(303);
    expect(unicode.headers.location).toBe("/danke%20sch%C3%B6n/%E2%9C%93");
    for (const sneaky of ["/\t/evil.test", "/\n/evil.test"]) {
      const answer = await post("/cms/contact/submit", {
        "fields[name]": "Ed",
        "fields[email]": "e@x.test",
        redirect_url: sneaky,
      });
      expect(answer.headers.location, sneaky).toBe("/thanks");
    }
  });

  it("answers JSON clients with {ok, message} and refuses missing required fields without saving", async () => {
    const before = (await messages()).length;
    const ok = await post(
      "/cms/contact/submit",
      { "fields[name]": "Cy", "fields[email]": "c@x.test" },
      { accept: "application/json" },
    );
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ ok: true, message: "Thanks!" });
    const missing = await post(
      "/cms/contact/submit",
      { "fields[name]": "Dee" },
      { accept: "application/json" },
    );
    expect(missing.status).toBe(422);
    expect(JSON.parse(missing.text)).toEqual({
      error: "Validation failed",
      details: [{ path: "email", message: "is required" }],
    });
    const page422 = await post("/cms/contact/submit", { "fields[name]": "Dee" });
    expect(page422.status).toBe(422);
    expect(page422.text).toContain("<li>email: is required</li>");
    expect((await messages()).length).toBe(before + 1);
  });

  it("drops honeypot and spam submissions silently, and 404s unknown forms", async () => {
    const before = (await messages()).length;
    const bot = await post("/cms/contact/submit", {
      "fields[name]": "Bot",
      "fields[email]": "b@x.test",
      website: "http://spam.test",
    });
    expect(bot.status).toBe(303);
    const spam = await post(
      "/cms/contact/submit",
      {
        "fields[name]": "Spam",
        "fields[email]": "s@x.test",
        "fields[message]": "cheap viagra at http://a.test http://b.test",
      },
      { accept: "application/json" },
    );
    expect(JSON.parse(spam.text)).toEqual({ ok: true, message: "Thanks!" });
    expect((await messages()).length).toBe(before);
    expect((await post("/cms/nope/submit", { a: "b" }, { accept: "application/json" })).status).toBe(404);
  });
});

describe("form_for options and cms_scripts", () => {
  beforeAll(async () => {
    await expectCreated(
      client.post("/forms", {
        title: "Plain",
        handle: "plain",
        collection_handle: "messages",
        blueprint_handle: "messages",
      }),
    );
    const html = [
      '<div class="keyword">{% form_for form: "contact", class: "x", id: "y", redirect: "/thanks", success_message: "Thanks!" %}<button>Send</button>{% endform_for %}</div>',
      "<div class=\"bare\">{% form_for 'plain' %}{% endform_for %}</div>",
      '<div class="chosen">{% form_for \'plain\', redirect: "/after", success_message: "Got it" %}{% endform_for %}</div>',
      '<div class="scripts">{% cms_scripts %}</div>',
    ].join("\n");
    await expectCreated(client.post("/templates", { handle: "form-shapes", title: "Form shapes", html }));
    await expectCreated(
      client.post("/collections/pages/entries", {
        handle: "form-shapes",
        title: "Form shapes",
        template_handle: "form-shapes",
      }),
    );
  });

  it("renders the keyword syntax with its class, id, redirect and success message", async () => {
    const { text } = await page("/form-shapes");
    expect(text).toContain(
      '<div class="keyword"><form method="post" action="/cms/contact/submit" enctype="multipart/form-data" class="cms-form x" id="y" data-controller="collection-form" data-collection-form-target="form">' +
        '<input type="hidden" name="redirect_url" value="/thanks">' +
        '<input type="hidden" name="success_message" value="Thanks!">' +
        '<div class="cms-hp" aria-hidden="true"><label>Website<input type="text" name="website" tabindex="-1" autocomplete="off"></label></div>' +
        "<button>Send</button></form></div>",
    );
  });

  it("always writes the hidden redirect_url and success_message inputs, empty when neither tag nor form sets them", async () => {
    const { text } = await page("/form-shapes");
    expect(text).toContain(
      '<div class="bare"><form method="post" action="/cms/plain/submit" enctype="multipart/form-data" class="cms-form" id="form_plain" data-controller="collection-form" data-collection-form-target="form">' +
        '<input type="hidden" name="redirect_url" value=""><input type="hidden" name="success_message" value=""></form></div>',
    );
    expect(text).toContain(
      '<input type="hidden" name="redirect_url" value="/after"><input type="hidden" name="success_message" value="Got it"></form></div>',
    );
  });

  it("cms_scripts writes the CMS stylesheet and script tags", async () => {
    const { status, text } = await page("/form-shapes");
    expect(status).toBe(200);
    expect(text).toContain(
      '<div class="scripts"><link rel="stylesheet" href="/cms/cms.css">\n<script type="module" src="/cms/cms.js"></script></div>',
    );
  });
});

/** A raw POST to the site: the body as bytes, sent in `chunks` pieces (chunked when more than one). */
function postRaw(path: string, body: Buffer, headers: Record<string, string>, chunks = 1) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const { port } = new URL(server.url);
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: "POST", headers: { host: acme.domain, ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    const size = Math.ceil(body.length / chunks);
    for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
    req.end();
  });
}

/** A FormData as the multipart bytes and content type a browser would send. */
async function multipart(form: FormData) {
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    type: encoded.headers.get("content-type") ?? "",
  };
}

const messageCount = async () =>
  (await client.get("/collections/messages/entries")).body.pagination.total as number;

describe("form bodies and the submission rate", () => {
  it("accepts multipart posts as browsers send them, dropping file parts", async () => {
    const form = new FormData();
    form.append("fields[name]", "Multi");
    form.append("fields[email]", "multi@x.test");
    form.append("fields[message]", "Über 文字");
    form.append("attachment", new Blob([Buffer.alloc(50_000, 1)]), "cv.pdf");
    const { body, type } = await multipart(form);
    const response = await postRaw("/cms/contact/submit", body, {
      "content-type": type,
      accept: "application/json",
    });
    expect(response.status, response.text).toBe(200);
    const [stored] = await messages();
    expect(stored).toMatchObject({ name: "Multi", email: "multi@x.test", message: "Über 文字" });
  });

  it("refuses bodies past 2 MB, declared or chunked, and values past 64 KB with 413, saving nothing", async () => {
    const before = await messageCount();
    const big = Buffer.from(
      `fields[name]=Big&fields[email]=b%40x.test&fields[message]=${"a".repeat(3_000_000)}`,
    );
    const form = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    const declared = await postRaw("/cms/contact/submit", big, form);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text)).toEqual({
      error: "Request body too large",
      details: [{ path: "body", message: "must be at most 2 MB" }],
    });
    const chunked = await postRaw("/cms/contact/submit", big, form, 30);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text).error).toBe("Request body too large");
    const longValue = Buffer.from(
      `fields[name]=L&fields[email]=l%40x.test&fields[message]=${"a".repeat(70_000)}`,
    );
    const tooLong = await postRaw("/cms/contact/submit", longValue, form);
    expect(tooLong.status).toBe(413);
    expect(JSON.parse(tooLong.text).details).toEqual([
      { path: "fields[message]", message: "must be at most 64 KB" },
    ]);
    const garbage = await postRaw("/cms/contact/submit", Buffer.from("{}"), {
      "content-type": "application/json",
      accept: "application/json",
    });
    expect(garbage.status).toBe(400);
    expect(await messageCount()).toBe(before);
  });

  it("limits how often one address may send a spam-checked form (429, not saved), and only such forms", async () => {
    for (const [handle, spamCheck] of [
      ["callback", true],
      ["unchecked", false],
    ] as const) {
      await expectCreated(
        client.post("/forms", {
          title: handle,
          handle,
          collection_handle: "messages",
          blueprint_handle: "messages",
          spam_check_enabled: spamCheck,
        }),
      );
    }
    const send = (handle: string, n: number) =>
      post(
        `/cms/${handle}/submit`,
        { "fields[name]": `Caller ${n}`, "fields[email]": "c@x.test" },
        { accept: "application/json" },
      );
    const before = await messageCount();
    for (let n = 1; n <= 10; n++) expect((await send("callback", n)).status).toBe(200);
    const refused = await send("callback", 11);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({
      error: "Too many submissions",
      details: [{ path: "body", message: expect.stringMatching(/try again in \d+ s$/) }],
    });
    const page429 = await post("/cms/callback/submit", { "fields[name]": "X", "fields[email]": "x@x.test" });
    expect(page429.status).toBe(429);
    expect(page429.text).toContain("<h1>Too many submissions</h1>");
    expect(await messageCount()).toBe(before + 10);
    for (let n = 1; n <= 11; n++) expect((await send("unchecked", n)).status).toBe(200);
    expect(await messageCount()).toBe(before + 21);
  });
});

describe("query and paginate tags", () => {
  beforeAll(async () => {
    for (const handle of ["latest", "media"]) {
      await expectCreated(
        client.post("/collections/pages/entries", {
          handle,
          title: handle[0]?.toUpperCase() + handle.slice(1),
          template_handle: handle,
        }),
      );
    }
    await expectCreated(
      client.post("/collections", {
        name: "Notes",
        handle: "notes",
        routing: "notes/:handle",
        blueprint: { fields: [] },
      }),
    );
    // 101 published notes: one more than a query may show on a page.
    for (let batch = 0; batch < 101; batch += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, 101 - batch) }, (_, i) =>
          expectCreated(
            client.post("/collections/notes/entries", { handle: `n${batch + i}`, title: `N${batch + i}` }),
          ),
        ),
      );
    }
  });

  it("query lists a page of a collection's published entries in the asked order, with total and pagination", async () => {
    const first = await page("/latest");
    expect(first.status).toBe(200);
    // The unpublished "Draft" is neither listed nor counted.
    expect(first.text).toContain('<ul class="latest"><li>Post 3</li><li>Post 2</li></ul>');
    expect(first.text).toContain('<p class="query">total=3 page=1/2 prev= next=/latest?page=2</p>');
    const second = await page("/latest?page=2");
    expect(second.text).toContain('<ul class="latest"><li>Post 1</li></ul>');
    expect(second.text).toContain('<p class="query">total=3 page=2/2 prev=/latest next=</p>');
    expect(second.text).not.toContain("Draft");
  });

  it("query shows at most 100 entries a page, and nothing for an unknown collection", async () => {
    const { text } = await page("/latest");
    expect(text).toContain('<p class="capped">per_page=100 shown=100 total=101</p>');
    expect(text).toContain('<p class="unknown">total=0 shown=0</p>');
  });

  // The hosted service's meaning: `paginate.items` is the page's entries (not Shopify's count), and page
  // URLs are `<path>/page/N`; the site serves `?page=N` too.
  it("paginate shows the request's page of a collection's entries, the paginate object and default_pagination", async () => {
    const first = await page("/latest");
    expect(first.text).toContain('<ol class="paged"><li>p1</li><li>p2</li></ol>');
    expect(first.text).toContain('<p class="paginate">1/2 items=p1,p2 of 3 size=2 offset=0</p>');
    expect(first.text).toContain(
      '<nav class="pagination"><span class="page current">1</span> <span class="page"><a href="/latest/page/2">2</a></span> <span class="next"><a href="/latest/page/2">Next &raquo;</a></span></nav>',
    );
    for (const path of ["/latest?page=2", "/latest/page/2"]) {
      const second = await page(path);
      expect(second.text).toContain('<ol class="paged"><li>p3</li></ol>');
      expect(second.text).toContain('<p class="paginate">2/2 items=p3 of 3 size=2 offset=2</p>');
      expect(second.text).toContain(
        '<nav class="pagination"><span class="prev"><a href="/latest">&laquo; Previous</a></span> <span class="page"><a href="/latest">1</a></span> <span class="page current">2</span></nav>',
      );
    }
  });

  it("refuses to save a paginate tag without a list (422 on html); `by N` may be left out, as on the service", async () => {
    const response = await client.post("/templates", {
      template: { handle: "bad-paginate", html: "{% paginate %}{% endpaginate %}" },
    });
    expect(response.status).toBe(422);
    expect(response.body.details[0]).toMatchObject({ path: "html" });
    expect(response.body.details[0].message).toContain('paginate needs "<list> [by <page size>]"');
  });

  it("paginate slices any other array", async () => {
    expect((await page("/latest")).text).toContain('<p class="letters">abc of 5</p>');
    expect((await page("/latest?page=2")).text).toContain('<p class="letters">de of 5</p>');
  });
});

describe("asset filters", () => {
  it("asset_url encodes each path segment and keeps absolute URLs", async () => {
    const { text, status } = await page("/media");
    expect(status).toBe(200);
    expect(text).toContain(
      '<p class="asset-url">/assets/img/logo%20one.png /assets/app.js https://cdn.test/x.css</p>',
    );
  });

  it("image_tag, script_tag and stylesheet_tag write escaped attributes", async () => {
    const { text } = await page("/media");
    expect(text).toContain(
      '<p class="image"><img src="/assets/logo.png" alt="Our &quot;logo&quot;" class="brand" width="120"></p>',
    );
    expect(text).toContain('<p class="script"><script src="/assets/app.js" type="module"></script></p>');
    expect(text).toContain(
      '<p class="stylesheet"><link href="/assets/site.css" rel="stylesheet" type="text/css" media="all"></p>',
    );
  });

  it("video_player plays a video file in <video> and embeds YouTube", async () => {
    const { text } = await page("/media");
    expect(text).toContain(
      '<p class="video"><video controls playsinline preload="metadata" autoplay muted><source src="/assets/clips/intro.mp4" type="video/mp4"></video></p>',
    );
    expect(text).toContain(
      '<p class="embed"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="Video" allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture" allowfullscreen loading="lazy"></iframe></p>',
    );
  });
});

describe("crawlers and CMS assets", () => {
  it("lists published sitemap entries and index pages in /sitemap.xml, which /robots.txt names", async () => {
    const robots = await page("/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.text).toContain(`Sitemap: http://${acme.domain}/sitemap.xml`);
    const map = await page("/sitemap.xml");
    expect(map.status).toBe(200);
    expect(map.headers["content-type"]).toMatch(/^application\/xml/);
    const locs = [...map.text.matchAll(/<loc>(.*?)<\/loc>/g)].map((match) => match[1]);
    const origin = `http://${acme.domain}`;
    expect(locs).toEqual(
      expect.arrayContaining([`${origin}/blog`, `${origin}/blog/p1`, `${origin}/`, `${origin}/jane`]),
    );
    expect(locs).not.toContain(`${origin}/blog/draft`);
    expect(locs).not.toContain(`${origin}/secret`);
  });

  it("serves RSS 2.0 at a feed-enabled collection's feed_path, newest published first, feed_limit items", async () => {
    const enable = await client.raw("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation { collectionFeedUpdate(account_id: "${acme.account_id}", id: "post", input: {
          feed_enabled: true, feed_path: "blog/feed.xml", feed_title: "Acme blog", feed_limit: 2 }) { feed_path } }`,
      }),
    });
    expect(enable.body.errors, enable.text).toBeUndefined();
    const feed = await page("/blog/feed.xml");
    expect(feed.status).toBe(200);
    expect(feed.headers["content-type"]).toMatch(/^application\/rss\+xml/);
    expect(feed.text).toContain('<rss version="2.0">');
    expect(feed.text).toContain("<title>Acme blog</title>");
    const links = [...feed.text.matchAll(/<item><title>(.*?)<\/title>/g)].map((match) => match[1]);
    expect(links).toEqual(["Post 3", "Post 2"]);
    expect(feed.text).not.toContain("Draft");
  });

  it("serves the CMS stylesheet and script", async () => {
    const css = await page("/cms/cms.css");
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    expect(css.text).toContain(".cms-hp");
    const js = await page("/cms/cms.js");
    expect(js.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(js.text).toContain("data-cms-loading");
  });
});

describe("not found, hosts and caching", () => {
  it("renders the 404 template inside the theme for unknown paths, and a plain 404 for unknown hosts", async () => {
    const missing = await page("/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1 class="not-found">Nothing at /nowhere</h1>');
    expect(missing.text).toContain("<footer>(c) Acme · Footer</footer>");
    const unknown = await siteGet(server, "/blog/p1", "unknown.test");
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain("Post 1");
  });

  it("ignores the port in the Host header", async () => {
    expect((await siteGet(server, "/blog/p1", `${acme.domain}:8080`)).text).toContain("<h1>Post 1</h1>");
  });

  it("answers If-None-Match with 304 and changes the ETag when the content changes", async () => {
    const first = await page("/blog/p3");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await page("/blog/p3", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    await client.patch("/collections/post/entries/p3", { body: "<p>Changed</p>" });
    const changed = await page("/blog/p3", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain("<p>Changed</p>");
  });
});

describe("isolation and limits", () => {
  it("keeps the internal site view out of the public GraphQL schema", async () => {
    const response = await client.raw("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", host: acme.domain },
      body: JSON.stringify({ query: "{ site { domain templates } }" }),
    });
    expect(response.body.errors?.[0]?.message).toMatch(/Cannot query field "site"/);
    expect(response.text).not.toContain("content_for_layout");
  });

  it("never renders another account's templates", async () => {
    await expectCreated(
      other.post("/templates", { template: { handle: "stolen", kind: "partial", html: "OTHER ACCOUNT" } }),
    );
    await client.post("/templates", { template: { handle: "thief", html: "{% render 'stolen' %}" } });
    await client.post("/collections", {
      name: "Thief",
      handle: "thief",
      routing: "thief/:handle",
      template_handle: "thief",
      blueprint: { fields: [] },
    });
    await client.post("/collections/thief/entries", { handle: "t", title: "T" });
    const response = await page("/thief/t");
    expect(response.text).not.toContain("OTHER ACCOUNT");
    // As a partial the account lacks: its name (theme-compat.test.ts).
    expect(response.status).toBe(200);
    expect(response.text).toContain("stolen");
  });

  it("stops a runaway template with a short 500 and keeps serving", async () => {
    await client.post("/templates", {
      template: {
        handle: "runaway",
        html: "{% for a in (1..100000) %}{% for b in (1..100000) %}{{ a }}{% endfor %}{% endfor %}",
      },
    });
    await client.post("/collections", {
      name: "Runaway",
      handle: "runaway",
      routing: "run/:handle",
      template_handle: "runaway",
      blueprint: { fields: [] },
    });
    await client.post("/collections/runaway/entries", { handle: "r", title: "R" });
    const started = Date.now();
    const response = await page("/run/r");
    expect(response.status).toBe(500);
    expect(response.text).toBe("This page could not be rendered.\n");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await page("/blog/p1")).status).toBe(200);
  });
});

describe("parsed template cache", () => {
  it("renders an edited template and an edited partial on the next request", async () => {
    expect((await page("/media")).text).toContain("<h1>Media</h1>");
    const edited = await client.put("/templates/media", {
      template: { html: '<h1 class="v2">{{ title }}</h1>' },
    });
    expect(edited.status).toBe(200);
    const after = await page("/media");
    expect(after.text).toContain('<h1 class="v2">Media</h1>');
    expect(after.text).not.toContain('class="asset-url"');

    const byline = readFileSync(new URL("byline.liquid", themeDir), "utf8");
    expect((await page("/blog/p1")).text).toContain('<small class="byline">by Post 1</small>');
    await client.put("/templates/byline", {
      template: { html: '<small class="byline">v2 {{ name }}</small>' },
    });
    expect((await page("/blog/p1")).text).toContain('<small class="byline">v2 Post 1</small>');
    await client.put("/templates/byline", { template: { html: byline } });
    expect((await page("/blog/p1")).text).toContain('<small class="byline">by Post 1</small>');
  });

  it("never serves one account's parse to another account with the same handles", async () => {
    for (const [handle, kind, html] of [
      ["theme", "layout", "<main>{{ content_for_layout }}</main>"],
      ["post", "template", "<p>other {{ title }}</p>{% render 'byline' %}"],
      ["byline", "partial", "<i>other byline</i>"],
    ]) {
      await expectCreated(other.post("/templates", { template: { handle, kind, html } }));
    }
    await expectCreated(
      other.post("/collections", {
        name: "Posts",
        handle: "post",
        routing: "blog/:handle",
        template_handle: "post",
        blueprint: { fields: [] },
      }),
    );
    await expectCreated(other.post("/collections/post/entries", { handle: "p1", title: "Post 1" }));
    const mine = await page("/blog/p1");
    const theirs = await siteGet(server, "/blog/p1", other.account.domain);
    expect(mine.text).toContain('<small class="byline">by Post 1</small>');
    expect(theirs.text).toBe("<main><p>other Post 1</p><i>other byline</i></main>");
    expect((await page("/blog/p1")).text).toBe(mine.text);
  });

  it("keeps each render's own account while renders of both overlap", async () => {
    // Each render reads the database between its tags (`query`), so twenty renders in flight at once
    // interleave, some finishing while others still have partials and queries to go. Every `?page=N`
    // is a page of its own, rendered afresh.
    await other.put("/templates/post", {
      template: {
        html: "<p>other {{ title }}</p>{% query collection: \"post\" %}{{ query.total }}{% endquery %}{% render 'byline' %}",
      },
    });
    const renders = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? page(`/latest?page=${i + 1}`)
          : siteGet(server, `/blog/p1?page=${i + 1}`, other.account.domain),
      ),
    );
    renders.forEach((render, i) => {
      expect(render.status, render.text.slice(0, 200)).toBe(200);
      if (i % 2 === 0) expect(render.text).toContain(`<p class="unknown">total=0 shown=0</p>`);
      else expect(render.text).toBe("<main><p>other Post 1</p>1<i>other byline</i></main>");
    });
  });
});
