// Every behaviour docs/themes-from-the-hosted-service.md promises a theme, rendered: one site whose templates
// use each variable, tag, option and filter the page names, read back through the public site on both
// databases. Claims another test already renders in detail (service-theme.test.ts, theme-compat.test.ts)
// are checked here only where this page adds to them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet, siteRequest } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;

const template = (handle: string, kind: string, html: string) =>
  expectCreated(client.post("/templates", { template: { handle, title: handle, kind, html } }));

/** The text between `[name:` and its `]`, in the page at `path`. */
async function probe(path: string): Promise<(name: string) => string | undefined> {
  const page = await siteGet(server, path, account.domain);
  expect(page.status, `${path}: ${page.text} ${server.output.slice(-3).join("\n")}`).toBe(200);
  return (name) => new RegExp(`\\[${name}:(.*?):${name}\\]`, "s").exec(page.text)?.[1];
}

const layoutHtml = "<head>{{ content_for_header }}</head><main>{{ content_for_layout }}</main>";

const probeHtml = [
  '{% assign categories = "news,guides" | split: "," %}',
  "[globals:{{ site.title }}|{{ site.handle }}|{{ site.description }}|{{ brand.title }}|{{ brand.handle }}|{{ brand.motto }}|{{ globals.brand.title }}:globals]",
  "[site:{{ site.name }}|{{ site.domain }}:site]",
  "[nav:{% for i in navigation.main %}{{ i.title }}>{{ i.url }}({% for c in i.children %}{{ c.title }}>{{ c.url }}{% endfor %});{% endfor %}:nav]",
  "[path:{{ current_path }}|{{ current_page }}:path]",
  "[forms:{{ forms.contact.collection }}|{{ forms.contact.blueprint }}:forms]",
  "[partial:{% render 'peek', who: 'passed' %}:partial]",
  "[entry:{{ page.title }}|{{ page.handle }}|{{ page.position }}|{{ page.content_path }}|{{ page.published_at | date: '%F' }}|{{ page.body }}|{{ entry.title }}|{{ title }}|{{ page.id | slice: 0, 6 }}:entry]",
  "[hidden:{{ footer }}|{{ globals.footer.copyright }}|{{ forms.contact.collection }}|{{ current_page }}|{{ globals.brand.title }}:hidden]",
  '{% assign letters = "a,b,c,d,e" | split: "," %}{% paginate letters by 2 %}[paginate:{{ paginate.page_size }}|{{ paginate.per_page }}|{{ paginate.current_page }}|{{ paginate.current_offset }}|{{ paginate.total_pages }}|{{ paginate.pages }}|{{ paginate.total_entries }}|{{ paginate.total_count }}|{{ paginate.has_previous }}|{{ paginate.has_next }}|{{ paginate.previous_url }}|{{ paginate.next_url }}|{{ paginate.previous.title }}>{{ paginate.previous.url }}>{{ paginate.previous.is_link }}|{{ paginate.next.title }}>{{ paginate.next.url }}|{% for l in paginate.items %}{{ l }}{% endfor %}|{% for l in paginate.entries %}{{ l }}{% endfor %}|{% for p in paginate.parts %}{{ p.title }}{% if p.is_link %}>{{ p.url }}{% endif %},{% endfor %}:paginate]{% endpaginate %}',
  '{% assign many = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21" | split: "," %}{% paginate many %}[paginate-default:{{ paginate.per_page }}|{{ paginate.total_pages }}|{{ paginate.items.size }}:paginate-default]{% endpaginate %}',
  "{% paginate letters by 5 %}[paginate-single:{{ paginate.parts.size }}|{{ paginate.previous }}|{{ paginate.next }}:paginate-single]{% endpaginate %}",
  "{% paginate letters by 2 %}[default-pagination:{{ paginate | default_pagination }}:default-pagination][links:{{ paginate.links }}:links]{% endpaginate %}",
  '{% query collection: "posts" %}[query:{{ query.total }}|{% for p in query.results %}{{ p.handle }},{% endfor %}|{% for p in query.entries %}{{ p.handle }},{% endfor %}|{{ query.pagination.total_count }}|{{ query.pagination.total_entries }}|{{ query.pagination.per_page }}|{{ query.pagination.current_page }}|{{ query.pagination.total_pages }}|{{ query.pagination.previous_page }}|{{ query.pagination.next_page }}|{{ query.pagination.has_previous }}|{{ query.pagination.has_next }}|{{ query.pagination.previous_url }}|{{ query.pagination.next_url }}:query]{% endquery %}',
  '{% query collection: "posts", per_page: 1, page: 2, order_by: "title", order_dir: "asc" %}[query-page:{% for p in query.entries %}{{ p.handle }}{% endfor %}|{{ query.pagination.current_page }}|{{ query.pagination.previous_page }}|{{ query.pagination.next_page }}:query-page]{% endquery %}',
  '{% query collection: "posts", per_page: 1 %}[query-request-page:{% for p in query.entries %}{{ p.handle }}{% endfor %}|{{ query.pagination.current_page }}:query-request-page]{% endquery %}',
  '{% query collection: "posts", per_page: 500 %}[query-max:{{ query.pagination.per_page }}:query-max]{% endquery %}',
  ...["position", "title", "handle", "created_at", "updated_at", "published_at"].map(
    (by) =>
      `{% query collection: "posts", order_by: "${by}", order_dir: "asc" %}[order-${by}:{% for p in query.entries %}{{ p.handle }},{% endfor %}:order-${by}]{% endquery %}`,
  ),
  '{% query collection: "posts", order_by: "rank", order_dir: "asc" %}[order-field:{% for p in query.entries %}{{ p.handle }},{% endfor %}:order-field]{% endquery %}',
  ...(
    [
      ["in", "categories"],
      ["in-one", '"news"'],
      ["lt", "2"],
      ["lte", "2"],
      ["gt", "2"],
      ["gte", "2"],
      ["eq", ""],
      ["nope", '"news"'],
    ] as [string, string][]
  ).map(
    ([op, value]) =>
      `{% query collection: "posts", order_by: "handle", order_dir: "asc", filter: {fields: [{path: "${["in", "in-one", "eq", "nope"].includes(op) ? "category" : "rank"}", op: "${op === "in-one" ? "in" : op}"${value ? `, value: ${value}` : ""}}]} %}[op-${op}:{% for p in query.entries %}{{ p.handle }},{% endfor %}:op-${op}]{% endquery %}`,
  ),
  '{% query collection: "posts", filter: {fields: [{path: "rank", op: "eq", value: "high"}]} %}[op-wrong-type:{{ query.total }}:op-wrong-type]{% endquery %}',
  '[form:{% form_for form: "contact", class: "c", id: "f1", redirect: "/thanks", success_message: "Got it" %}{{ form.id }}|{{ form.collection }}|{{ form.blueprint }}|{% for f in form.fields %}{{ f }},{% endfor %}|{{ form.field.email.id }}|{{ form.field.email.label }}|{{ form.field.email.name }}|{{ form.field.email.type }}|{{ form.field.email.required }}|{{ form.field.email.placeholder }}|{{ form.field.message.help_text }}|{{ form.field.message.input_type }}|{{ form.field.topic.options | join: \'/\' }}|{{ form.field.email.display_as }}|{{ form.field.email.max_items }}|{{ form.errors.any }}|{{ form.errors.all.size }}|{{ form.errors.full_messages.size }}|{{ form.has_errors }}|{{ form.values.email }}|{% if form.field.name.placeholder %}set{% else %}nil{% endif %}|{% if form.field.name.help_text %}set{% else %}nil{% endif %}{% endform_for %}:form]',
  "[form-short:{% form_for 'contact' %}{{ form.id }}{% endform_for %}:form-short]",
  "[form-missing:{% form_for 'nowhere' %}inside{% endform_for %}:form-missing]",
  "[scripts:{% cms_scripts %}:scripts]",
  "[asset-url:{{ 'css/site.css' | asset_url }}|{{ 'https://cdn.example/x.png' | asset_url }}:asset-url]",
  "[stylesheet:{{ 'a.css' | asset_url | stylesheet_tag }}|{{ 'p.css' | asset_url | stylesheet_tag: 'print' }}:stylesheet]",
  "[script:{{ 'a.js' | asset_url | script_tag }}|{{ 'b.js' | asset_url | script_tag: 'default' }}|{{ 'c.js' | asset_url | script_tag: 'text/javascript' }}:script]",
  "[image:{{ 'h.jpg' | asset_url | image_tag: 'Hero', 'w-full' }}|{{ 'i.jpg' | asset_url | image_tag: alt: 'Named', class: 'n', loading: 'lazy' }}:image]",
  '{% assign at = "2024-06-03T01:30:00Z" %}[date:{{ at | date: "%F|%T|%D|%R|%r|%v|%c" }}:date]',
  '{% paginate letters by 2 %}[rebind:{{ letters | join: "" }}:rebind]{% endpaginate %}',
  "[divided:{{ 10 | divided_by: 4 }}|{{ 10.0 | divided_by: 4 }}:divided]",
  "[doc:{% doc %}@param {string} x{% enddoc %}{% locale %}:doc]",
].join("\n");

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Docs Co");
  client = api(server, account);
  await template(
    "theme",
    "layout",
    "<head>{{ content_for_header }}</head><main>{{ content_for_layout }}</main>",
  );
  await template("probe", "template", probeHtml);
  await template("peek", "partial", "{{ site.title }}|{{ current_path }}|{{ page.title }}|{{ who }}");
  await template("home", "template", "[home:{{ page.title }}:home]");
  await template("index", "template", "[fallback:{{ misc.title }}:fallback]");
  await template("post", "template", "[post:{{ posts.title }}:post]");
  await template(
    "posts-index",
    "template",
    "[index:{% for p in posts.entries %}{{ p.handle }},{% endfor %}|{{ pagination.page }}|{{ pagination.current_page }}|{{ pagination.total_pages }}|{{ pagination.total_entries }}|{{ pagination.per_page }}|{{ pagination.previous_page }}|{{ pagination.next_page }}|{{ pagination.has_previous }}|{{ pagination.has_next }}|{{ pagination.previous_url }}|{{ pagination.next_url }}|{{ page }}:index]",
  );
  await template(
    "by-author",
    "template",
    '{% query collection: "posts", order_by: "handle", order_dir: "asc", filter: {fields: [{path: "author", op: "eq", value: posts.author}]} %}[by-author:{% for p in query.entries %}{{ p.handle }},{% endfor %}:by-author]{% endquery %}',
  );
  await expectCreated(
    client.post("/collections", {
      name: "People",
      handle: "people",
      routing: "people/:handle",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(client.post("/collections/people/entries", { handle: "ann", title: "Ann" }));
  await expectCreated(client.post("/collections/people/entries", { handle: "bob", title: "Bob" }));
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: ":year/:month/:day/:handle",
      template_handle: "post",
      index_routing: "blog",
      index_template_handle: "posts-index",
      index_per_page: 2,
      blueprint: {
        fields: [
          { handle: "category", type: "text" },
          { handle: "rank", type: "number" },
          { handle: "author", type: "entity", options: { collection: "people" } },
        ],
      },
    }),
  );
  // Created in an order that differs from title, handle and published_at order.
  for (const post of [
    { handle: "b-two", title: "Zebra", published_at: "2024-02-01T00:00:00Z", category: "news", rank: 2 },
    { handle: "a-one", title: "Yak", published_at: "2024-03-01T00:00:00Z", category: "guides", rank: 3 },
    { handle: "c-three", title: "Xerus", published_at: "2024-01-01T00:00:00Z", category: "misc", rank: 1 },
  ]) {
    await expectCreated(
      client.post("/collections/posts/entries", {
        ...post,
        author: post.handle === "c-three" ? "bob" : "ann",
        position: post.rank === 3 ? 0 : post.rank,
      }),
    );
  }
  await expectCreated(
    client.post("/collections", {
      name: "Pages",
      handle: "page",
      routing: ":handle",
      root_routing: true,
      template_handle: "probe",
      blueprint: {
        fields: [
          { handle: "body", type: "rich_text" },
          ...["description", "footer", "forms", "current_page", "globals"].map((handle) => ({
            handle,
            type: "text",
          })),
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/collections/page/entries", { handle: "index", title: "Home", template_handle: "home" }),
  );
  await expectCreated(
    client.post("/collections/page/entries", {
      handle: "probe",
      title: "Probe",
      position: 4,
      published_at: "2024-05-06T07:08:09Z",
      body: "<p>Body</p>",
      description: "All about probes",
      footer: "Entry footer",
      forms: "Entry forms",
      current_page: "Entry page",
      globals: "Entry globals",
    }),
  );
  await expectCreated(client.post("/collections/page/entries", { handle: "about", title: "About" }));
  await expectCreated(
    client.post("/collections", {
      name: "Misc",
      handle: "misc",
      routing: "misc/:handle",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(client.post("/collections/misc/entries", { handle: "thing", title: "Thing" }));
  await expectCreated(
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
  await expectCreated(
    client.post("/globals", {
      name: "Brand Co",
      handle: "brand",
      fields: [{ handle: "motto", type: "text" }],
      motto: "Heavy",
    }),
  );
  await expectCreated(
    client.post("/globals", {
      name: "Footer",
      handle: "footer",
      fields: [{ handle: "copyright", type: "text" }],
      copyright: "(c) Acme",
    }),
  );
  const menu = await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  await expectCreated(client.post("/navigations/main/items", { title: "Home", url: "/" }));
  const about = await expectCreated(
    client.post("/navigations/main/items", {
      title: "About",
      collection_handle: "page",
      entry_handle: "about",
    }),
  );
  await expectCreated(
    client.post(`/navigations/${menu.id}/items`, { title: "Blog", url: "/blog", parent_id: about.id }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: {
        handle: "message",
        fields: [
          { handle: "name", type: "text", options: { required: true } },
          { handle: "email", type: "text", options: { required: true, placeholder: "you@example.com" } },
          { handle: "message", type: "text", options: { input_type: "textarea", help_text: "Be brief" } },
          { handle: "topic", type: "enumerate", options: { enumerations: ["sales", "support"] } },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/forms", {
      title: "Contact",
      handle: "contact",
      collection_handle: "messages",
      blueprint_handle: "message",
      honeypot_enabled: true,
    }),
  );
}, 60_000);
afterAll(() => server?.stop());

describe("variables every page has", () => {
  it("each global by handle: its fields, `handle`, and `title` (its `title` field, else its name); `globals` too", async () => {
    const at = await probe("/probe");
    expect(at("globals")).toBe("Acme Anvils|site|Anvils since 1949|Brand Co|brand|Heavy|Brand Co");
  });

  it("`site.name` and `site.domain` are the account's under the `site` global's fields", async () => {
    const at = await probe("/probe");
    expect(at("site")).toBe(`Docs Co|${account.domain}`);
  });

  it("`navigation.<handle>`: items {title, url, children}, a linked item's url its entry's path", async () => {
    const at = await probe("/probe");
    expect(at("nav")).toBe("Home>/();About>/about(Blog>/blog);");
  });

  it("`current_path` has no trailing slash; `current_page` is the request's page, else 1", async () => {
    expect((await probe("/probe"))("path")).toBe("/probe|1");
    expect((await probe("/probe/"))("path")).toBe("/probe|1");
    expect((await probe("/probe?page=3"))("path")).toBe("/probe|3");
    expect((await probe("/probe/page/2"))("path")).toBe("/probe/page/2|2");
  });

  it("`forms` holds the account's forms by handle", async () => {
    expect((await probe("/probe"))("forms")).toBe("messages|message");
  });

  it("a partial sees only what it is passed", async () => {
    expect((await probe("/probe"))("partial")).toBe("|||passed");
  });

  it("the layout gets `content_for_header`: SEO tags, content_path meta, the CMS stylesheet and script", async () => {
    const page = await siteGet(server, "/probe", account.domain);
    const head = /<head>(.*)<\/head>/s.exec(page.text)?.[1] ?? "";
    expect(head).toContain("<title>Probe | Docs Co</title>");
    expect(head).toContain('<meta name="description" content="All about probes">');
    expect(head).toContain(`<link rel="canonical" href="http://${account.domain}/probe">`);
    expect(head).toContain('<meta property="og:title" content="Probe | Docs Co">');
    expect(head).toContain(
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage"',
    );
    expect(head).toContain('<meta name="content_path" content="probe">');
    expect(head).toContain('<link rel="stylesheet" href="/cms/cms.css">');
    expect(head).toContain('<script type="module" src="/cms/cms.js"></script>');
    const home = await siteGet(server, "/", account.domain);
    expect(home.text).toContain('<meta name="content_path" content="index">');
    expect(home.text).toContain("[home:Home:home]");
  });
});

describe("entry pages and index pages", () => {
  it("the entry under its collection's handle, as `entry`, and its fields at the top level", async () => {
    const at = await probe("/probe");
    expect(at("entry")).toBe("Probe|probe|4|/probe|2024-05-06|<p>Body</p>|Probe|Probe|cnety_");
  });

  it("a field hides a global of its name (still `globals.<handle>`), never `forms`, `current_page` or `globals`", async () => {
    expect((await probe("/probe"))("hidden")).toBe("Entry footer|(c) Acme|messages|1|Brand Co");
  });

  it("an entry whose collection names no template renders `index`, in the `theme` layout", async () => {
    const page = await siteGet(server, "/misc/thing", account.domain);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toMatch(/<main>\[fallback:Thing:fallback\]<\/main>/);
  });

  it("an index page: `<handle>.entries`, `pagination` and `page`, at /page/N and ?page=N; past the end a 404", async () => {
    const first = await probe("/blog");
    // Site order: position ascending.
    expect(first("index")).toBe("a-one,c-three,|1|1|2|3|2||2|false|true||/blog/page/2|1");
    for (const path of ["/blog/page/2", "/blog?page=2"]) {
      const second = await probe(path);
      expect(second("index"), path).toBe("b-two,|2|2|2|3|2|1||true|false|/blog||2");
    }
    expect((await siteGet(server, "/blog/page/3", account.domain)).status).toBe(404);
  });

  it("a missing page template fails the page; a missing `theme` layout leaves the template alone", async () => {
    // A template or layout an entry or collection names must exist, and one in use stays.
    expect((await client.patch("/collections/misc", { layout_handle: "nowhere" })).status).toBe(422);
    expect((await client.delete("/templates/probe")).status).toBe(409);
    // The fallbacks `index` and `theme` may be missing.
    expect((await client.delete("/templates/index")).status).toBe(204);
    const failed = await siteGet(server, "/misc/thing", account.domain);
    expect(failed.status, failed.text).toBe(500);
    expect((await client.delete("/templates/theme")).status).toBe(204);
    const bare = await siteGet(server, "/probe", account.domain);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.text).not.toContain("<main>");
    expect(bare.text).toContain("[entry:Probe|");
    await template("index", "template", "[fallback:{{ misc.title }}:fallback]");
    await template("theme", "layout", layoutHtml);
  });

  it("routing placeholders :year/:month/:day come from published_at", async () => {
    const at = await probe("/2024/02/01/b-two");
    expect(at("post")).toBe("Zebra");
  });
});

describe("tags", () => {
  it("paginate: every documented field, on an entry page at /page/N", async () => {
    const first = await probe("/probe");
    expect(first("paginate")).toBe(
      "2|2|1|0|3|3|5|5|false|true||/probe/page/2|>>|Next &raquo;>/probe/page/2|ab|ab|1,2>/probe/page/2,3>/probe/page/3,",
    );
    const second = await probe("/probe/page/2");
    expect(second("paginate")).toBe(
      "2|2|2|2|3|3|5|5|true|true|/probe|/probe/page/3|&laquo; Previous>/probe>true|Next &raquo;>/probe/page/3|cd|cd|1>/probe,2,3>/probe/page/3,",
    );
    // Past the end: the last page.
    const past = await probe("/probe/page/9");
    expect(past("paginate")).toMatch(/^2\|2\|3\|4\|3\|/);
  });

  it("paginate: 20 a page unless `by` says; no parts, previous or next for a single page", async () => {
    const at = await probe("/probe");
    expect(at("paginate-default")).toBe("20|2|20");
    expect(at("paginate-single")).toBe("0||");
  });

  it("inside paginate, the paged list itself holds only the current page (a remaining difference)", async () => {
    expect((await probe("/probe"))("rebind")).toBe("ab");
    expect((await probe("/probe/page/3"))("rebind")).toBe("e");
  });

  it("default_pagination and paginate.links are the page links' HTML", async () => {
    const at = await probe("/probe");
    expect(at("default-pagination")).toContain('<a href="/probe/page/2">2</a>');
    expect(at("links")).toBe(at("default-pagination"));
  });

  it("query: results and entries, total, the documented pagination, newest first, 25 a page", async () => {
    const at = await probe("/probe");
    expect(at("query")).toBe("3|a-one,b-two,c-three,|a-one,b-two,c-three,|3|3|25|1|1|||false|false||");
  });

  it("query: `page:` and the request's page; per_page at most 100", async () => {
    const at = await probe("/probe");
    // By title: Xerus (c-three), Yak (a-one), Zebra (b-two).
    expect(at("query-page")).toBe("a-one|2|1|3");
    expect(at("query-request-page")).toBe("a-one|1");
    expect(at("query-max")).toBe("100");
    expect((await probe("/probe/page/3"))("query-request-page")).toBe("c-three|3");
  });

  it("query: order_by position, title, handle, created_at, updated_at, published_at", async () => {
    const at = await probe("/probe");
    expect(at("order-position")).toBe("a-one,c-three,b-two,");
    expect(at("order-title")).toBe("c-three,a-one,b-two,");
    expect(at("order-handle")).toBe("a-one,b-two,c-three,");
    expect(at("order-created_at")).toBe("b-two,a-one,c-three,");
    expect(at("order-updated_at")).toBe("b-two,a-one,c-three,");
    expect(at("order-published_at")).toBe("c-three,b-two,a-one,");
  });

  it("query: ordering by a blueprint field falls back to site order", async () => {
    const at = await probe("/probe");
    expect(at("order-field")).toBe(at("order-position"));
  });

  it("query filters: in, lt, lte, gt, gte; a condition without a value or with an unknown operator is left out", async () => {
    const at = await probe("/probe");
    expect(at("op-in")).toBe("a-one,b-two,");
    // One value for `in` is a list of one.
    expect(at("op-in-one")).toBe("b-two,");
    expect(at("op-lt")).toBe("c-three,");
    expect(at("op-lte")).toBe("b-two,c-three,");
    expect(at("op-gt")).toBe("a-one,");
    expect(at("op-gte")).toBe("a-one,b-two,");
    expect(at("op-eq")).toBe("a-one,b-two,c-three,");
    expect(at("op-nope")).toBe("a-one,b-two,c-three,");
    // One the collection cannot answer (a value of the wrong type) matches nothing.
    expect(at("op-wrong-type")).toBe("0");
  });

  it("query filters: a variable value, an entity field matching the entry", async () => {
    await expectCreated(
      client.post("/collections/posts/entries", {
        handle: "d-four",
        title: "Walrus",
        published_at: "2023-12-01T00:00:00Z",
        author: "ann",
        template_handle: "by-author",
      }),
    );
    const at = await probe("/2023/12/01/d-four");
    expect(at("by-author")).toBe("a-one,b-two,d-four,");
    expect((await client.delete("/collections/posts/entries/d-four")).status).toBe(204);
  });

  it("form_for: the form, its fields and errors as documented", async () => {
    const at = await probe("/probe");
    const form = at("form") ?? "";
    expect(form).toContain(
      '<form method="post" action="/cms/contact/submit" enctype="multipart/form-data" class="cms-form c" id="f1" data-controller="collection-form" data-collection-form-target="form">',
    );
    expect(form).toContain('<input type="hidden" name="redirect_url" value="/thanks">');
    expect(form).toContain('<input type="hidden" name="success_message" value="Got it">');
    expect(form).toMatch(/<input[^>]*name="website"/);
    expect(form.replace(/^.*<\/div>|^.*?>(?=f1\|)/s, "")).toMatch(
      /f1\|messages\|message\|name,email,message,topic,\|f1_email\|Email\|fields\[email\]\|text\|true\|you@example.com\|Be brief\|textarea\|sales\/support\|[^|]*\|[^|]*\|false\|0\|0\|false\|\|nil\|nil/,
    );
    expect(at("form-short")).toContain("form_contact");
  });

  it("a refused submission from a page of the site renders it again: form.errors and form.values, unescaped", async () => {
    const failed = await siteRequest(server, "/cms/contact/submit", account.domain, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        referer: `http://${account.domain}/probe`,
      },
      body: new URLSearchParams({ "fields[name]": "", "fields[email]": "<b>x</b>" }).toString(),
    });
    expect(failed.status, failed.text).toBe(422);
    const form = /\[form:(.*?):form\]/s.exec(failed.text)?.[1] ?? "";
    expect(form).toMatch(/\|true\|1\|1\|true\|<b>x<\/b>\|nil\|nil<\/form>$/);
    expect(await client.get("/collections/messages/entries")).toMatchObject({ body: { data: [] } });
  });

  it("a form the account lacks: an HTML comment naming it", async () => {
    const at = await probe("/probe");
    expect(at("form-missing")).toMatch(/^<!--[^>]*nowhere[^>]*-->$/);
  });

  it("cms_scripts: the stylesheet and the module script", async () => {
    const at = await probe("/probe");
    expect(at("scripts")).toBe(
      '<link rel="stylesheet" href="/cms/cms.css">\n<script type="module" src="/cms/cms.js"></script>',
    );
  });

  it("doc is never rendered; locale is en-us", async () => {
    expect((await probe("/probe"))("doc")).toBe("en-us");
  });

  it("the service's e-commerce and login tags are refused on save, naming the tag", async () => {
    for (const tag of ["github_oauth_login", "one_click_button", "collection_form"]) {
      const response = await client.post("/templates", {
        template: { handle: `shop-${tag}`, kind: "template", html: `{% ${tag} %}` },
      });
      expect(response.status, response.text).toBe(422);
      expect(response.body.details[0].path).toBe("html");
      expect(response.body.details[0].message).toContain(tag);
    }
  });
});

describe("filters", () => {
  it("asset_url: /assets/<path>, absolute URLs kept", async () => {
    expect((await probe("/probe"))("asset-url")).toBe("/assets/css/site.css|https://cdn.example/x.png");
  });

  it("stylesheet_tag with a media, script_tag's type, image_tag's alt and class and named attributes", async () => {
    const at = await probe("/probe");
    expect(at("stylesheet")).toBe(
      '<link href="/assets/a.css" rel="stylesheet" type="text/css" media="all">|<link href="/assets/p.css" rel="stylesheet" type="text/css" media="print">',
    );
    expect(at("script")).toBe(
      '<script src="/assets/a.js" type="module"></script>|<script src="/assets/b.js"></script>|<script src="/assets/c.js" type="text/javascript"></script>',
    );
    const image = at("image") ?? "";
    const [positional, named] = image.split("|");
    expect(positional).toMatch(/^<img src="\/assets\/h.jpg" alt="Hero" class="w-full"\s*\/?>$/);
    expect(named).toMatch(/^<img src="\/assets\/i.jpg"/);
    expect(named).toContain('alt="Named"');
    expect(named).toContain('class="n"');
    expect(named).toContain('loading="lazy"');
  });

  it("date reads Ruby's %F %T %D %R %r %v %c, in UTC for the CMS's own dates", async () => {
    expect((await probe("/probe"))("date")).toBe(
      "2024-06-03|01:30:00|06/03/24|01:30|01:30:00 AM| 3-JUN-2024|Mon Jun  3 01:30:00 2024",
    );
  });

  it("divided_by rounds down when both numbers are whole, 10.0 included", async () => {
    expect((await probe("/probe"))("divided")).toBe("2|2");
  });
});

describe("the site global", () => {
  it("a field `name` or `domain` of the `site` global wins; without a `site` global, `site` holds only those two", async () => {
    const named = await client.put("/globals/site", {
      fields: [
        { handle: "title", type: "text" },
        { handle: "description", type: "text" },
        { handle: "name", type: "text" },
      ],
      name: "Site settings",
    });
    // `name` is the global's own key: the field cannot be added.
    expect(named.status, named.text).toBe(422);
    const domain = await client.put("/globals/site", {
      fields: [
        { handle: "title", type: "text" },
        { handle: "description", type: "text" },
        { handle: "domain", type: "text" },
      ],
      domain: "example.org",
    });
    expect(domain.status, domain.text).toBe(200);
    expect((await probe("/probe"))("site")).toBe("Docs Co|example.org");
    expect((await client.delete("/globals/site")).status).toBe(204);
    const at = await probe("/probe");
    expect(at("site")).toBe(`Docs Co|${account.domain}`);
    expect(at("globals")).toBe("|||Brand Co|brand|Heavy|Brand Co");
  });
});
