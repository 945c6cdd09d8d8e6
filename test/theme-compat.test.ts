// What a theme written for the hosted service meets here as it does there (its previewer, Airogel/liquiditor,
// is the reference), on both databases: the service's own variables (`site`, `navigation`, …) are not
// hidden by an entry's fields of the same name, while a global is (decisions.md: the entry field wins, the
// global stays at `globals.<handle>`); a partial the account lacks renders as an HTML comment (nothing
// visible) and is logged, instead of taking the page down; an index paged by its template has all of that paging's pages; an entry's URL with a
// trailing slash is its page; an integer divided by an integer is rounded down, as Liquid does; a date
// keeps its offset and `date` reads Ruby's `%F`, `%T`, `%c`…; a form names its collection and blueprint,
// and its field prints as its handle; video_player embeds the URL forms the service does.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;

const template = (handle: string, kind: string, html: string) =>
  expectCreated(client.post("/templates", { template: { handle, kind, html } }));

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Themed");
  client = api(server, account);
  await template(
    "theme",
    "layout",
    "<title>{{ site.title }}</title><nav>{% for item in navigation.main %}{{ item.title }};{% endfor %}</nav>" +
      "<main>{{ content_for_layout }}</main><head>{{ content_for_header }}</head>",
  );
  await template("byline", "partial", "by the team");
  await template(
    "posts-index",
    "template",
    "{% paginate posts.entries by 1 %}{% for post in paginate.items %}{{ post.handle }}{% endfor %}" +
      "/{{ paginate.pages }}{% endpaginate %}|{% for post in posts.entries %}{{ post.handle }};{% endfor %}",
  );
  await template(
    "post",
    "template",
    "[{{ title }}|{{ seo }}|{{ globals.seo.tagline }}|{{ posts.navigation }}|{{ current_path }}]" +
      "<author>{{ posts.author.title }} of {{ posts.author.company.title }} in {{ posts.author.company.city.title }}</author>" +
      "[{% render 'byline' %}|{% render 'missing_partial' %}|{% include 'missing-inc' %}|after]" +
      '{% assign sneaky = "{{ 6 | times: 7 }}<b>" %}[{% render sneaky %}]' +
      "[{{ 10 | divided_by: 4 }}|{{ -7 | divided_by: 2 }}|{{ 7.5 | divided_by: 2 }}|{{ 10 | divided_by: 0.5 }}|" +
      "{{ 1999 | divided_by: 100.0 }}|{% assign cents = 100 %}{{ 1999 | divided_by: cents }}]" +
      '{% assign at = "2024-06-03T01:30:00+02:00" %}' +
      '[{{ at | date: "%F %T|%D|%R|%r|%c|%%F" }}|{{ at | date: "%-d %b %Y %H:%M %z" }}]' +
      "{% form_for 'contact' %}[{{ form.collection }}/{{ form.blueprint }}/{% for f in form.fields %}{{ f }},{% endfor %}" +
      "{{ forms.contact.collection }}]{% endform_for %}" +
      '{% assign videos = "https://www.youtube.com/live/dQw4w9WgXcQ https://m.youtube.com/v/dQw4w9WgXcQ https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ https://music.youtube.com/watch?v=dQw4w9WgXcQ https://vimeo.com/channels/staffpicks/123456789 https://vimeo.com/groups/foo/videos/123456789 https://player.vimeo.com/video/123456789" | split: " " %}' +
      "<videos>{% for url in videos %}{{ url | video_player }}{% endfor %}" +
      "{{ 'clip.mp4' | video_player: class: 'v', thumbnail: 'p.jpg', video_id: 'abc' }}</videos>",
  );
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "blog/:handle",
      template_handle: "post",
      index_routing: "blog",
      index_template_handle: "posts-index",
      index_per_page: 2,
      blueprint: {
        fields: [
          ...["seo", "navigation", "site", "current_path"].map((handle) => ({ handle, type: "text" })),
          { handle: "author", type: "entity", options: { collection: "people" } },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/globals", {
      // The global's name is its `title`.
      name: "Acme",
      handle: "site",
      fields: [{ handle: "tagline", type: "text" }],
    }),
  );
  await expectCreated(
    client.post("/globals", {
      name: "SEO",
      handle: "seo",
      fields: [{ handle: "tagline", type: "text" }],
      tagline: "Global tagline",
    }),
  );
  await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
  await expectCreated(client.post("/navigations/main/items", { title: "Home", url: "/" }));
  // A post's author, the author's company, the company's city: three levels of references.
  for (const [handle, field, target] of [
    ["cities", "", ""],
    ["companies", "city", "cities"],
    ["people", "company", "companies"],
  ]) {
    const fields = field ? [{ handle: field, type: "entity", options: { collection: target } }] : [];
    await expectCreated(
      client.post("/collections", {
        name: handle,
        handle,
        routing: `${handle}/:handle`,
        blueprint: { fields },
      }),
    );
  }
  await expectCreated(client.post("/collections/cities/entries", { handle: "lyon", title: "Lyon" }));
  await expectCreated(
    client.post("/collections/companies/entries", { handle: "rails", title: "Rails", city: "lyon" }),
  );
  await expectCreated(
    client.post("/collections/people/entries", { handle: "ann", title: "Ann", company: "rails" }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", {
      handle: "hello",
      title: "Hello",
      seo: "Entry seo",
      navigation: "Entry navigation",
      site: "https://entry.example",
      current_path: "entry path",
      author: "ann",
    }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: { fields: ["name", "message"].map((handle) => ({ handle, type: "text" })) },
    }),
  );
  await expectCreated(
    client.post("/forms", {
      title: "Contact",
      handle: "contact",
      collection_handle: "messages",
      blueprint_handle: "messages",
    }),
  );
  for (const handle of ["second", "third"])
    await expectCreated(client.post("/collections/posts/entries", { handle, title: handle }));
}, 60_000);
afterAll(() => server?.stop());

const main = (html: string) => /<main>(.*)<\/main>/s.exec(html)?.[1];

it("an entry's fields hide a global of their name, never the service's `site`, `navigation` or `current_path`", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain("<title>Acme</title><nav>Home;</nav>");
  expect(main(page.text)).toMatch(/^\[Hello\|Entry seo\|Global tagline\|Entry navigation\|\/blog\/hello\]/);
});

it("references are entries five levels deep on the site, as on the service", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(page.text).toContain("<author>Ann of Rails in Lyon</author>");
});

it("a web of entries each naming all the others expands within a bound, not 30 to the fifth", async () => {
  await template("web", "template", "{{ web.links.size }}:{{ web.links.first.links.first.links.size }}");
  await expectCreated(
    client.post("/collections", {
      name: "Web",
      handle: "web",
      routing: "web/:handle",
      template_handle: "web",
      blueprint: {
        fields: [{ handle: "links", type: "entity", options: { collection: "web", multiple: true } }],
      },
    }),
  );
  const handles = Array.from({ length: 30 }, (_, index) => `node-${index}`);
  for (const handle of handles)
    await expectCreated(client.post("/collections/web/entries", { handle, title: handle }));
  for (const handle of handles) {
    const linked = await client.patch(`/collections/web/entries/${handle}`, { links: handles });
    expect(linked.status, linked.text).toBe(200);
  }
  const started = Date.now();
  const page = await siteGet(server, "/web/node-0", account.domain);
  expect(main(page.text)).toBe("30:30");
  expect(Date.now() - started).toBeLessThan(5_000);
}, 60_000);

it("a partial the account lacks renders as nothing visible, is logged, and the page goes on", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(page.status).toBe(200);
  expect(main(page.text)).toContain(
    "[by the team|<!-- partial 'missing_partial' not found -->|<!-- partial 'missing-inc' not found -->|after]",
  );
  // A name from data is never run as Liquid nor printed as markup.
  expect(main(page.text)).toContain("after][<!-- partial not found -->]");
  const logged = server.output
    .filter((line) => line.includes('"msg":"partial not found"'))
    .map((line) => JSON.parse(line));
  expect(logged.at(-1)).toMatchObject({
    level: "warn",
    host: account.domain,
    path: "/blog/hello",
    partials: ["missing_partial", "missing-inc", "{{ 6 | times: 7 }}<b>"],
  });
});

it("an integer divided by an integer is rounded down; with a fraction it is exact", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(main(page.text)).toContain("[2|-4|3.75|20|19.99|19]");
});

it("dates keep their own offset and read Ruby's strftime directives", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(main(page.text)).toContain(
    "[2024-06-03 01:30:00|06/03/24|01:30|01:30:00 AM|Mon Jun  3 01:30:00 2024|%F|3 Jun 2024 01:30 +0200]",
  );
});

it("an index whose template pages its collection by fewer than index_per_page has all of those pages", async () => {
  // Three posts, two an index page: the index has 2 pages of its own, `paginate … by 1` 3.
  const pages = await Promise.all(
    ["/blog", "/blog/page/2", "/blog/page/3", "/blog?page=3"].map((path) =>
      siteGet(server, path, account.domain),
    ),
  );
  expect(pages.map((page) => main(page.text))).toEqual([
    "third/3|third;second;",
    "second/3|hello;",
    "hello/3|hello;",
    "hello/3|hello;",
  ]);
  expect((await siteGet(server, "/blog/page/4", account.domain)).status).toBe(404);
});

it("a form names its collection and blueprint, and a field prints as its handle", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(main(page.text)).toContain("[messages/messages/name,message,messages]");
});

it("video_player embeds every URL form of YouTube and Vimeo the service does, and takes its thumbnail", async () => {
  const page = await siteGet(server, "/blog/hello", account.domain);
  const videos = /<videos>(.*)<\/videos>/s.exec(page.text)?.[1] ?? "";
  expect([...videos.matchAll(/<iframe src="([^"]+)"/g)].map((match) => match[1])).toEqual([
    ...Array(4).fill("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"),
    ...Array(3).fill("https://player.vimeo.com/video/123456789"),
  ]);
  expect(videos).toContain(
    '<video controls playsinline preload="metadata" poster="/assets/p.jpg" class="v"><source src="/assets/clip.mp4" type="video/mp4"></video>',
  );
});

it("an entry's URL with a trailing slash is its page; an unknown one is still a 404", async () => {
  const slashed = await siteGet(server, "/blog/hello/", account.domain);
  expect(slashed.status, slashed.text).toBe(200);
  expect(main(slashed.text)).toMatch(/^\[Hello\|.*\|\/blog\/hello\]/);
  // One page, one canonical URL.
  expect(slashed.text).toContain(`<link rel="canonical" href="http://${account.domain}/blog/hello">`);
  expect((await siteGet(server, "/blog/nobody/", account.domain)).status).toBe(404);
});

it("a global's `title` field is its `title` (`{{ site.title }}`, as the service's themes read it), else its name", async () => {
  const titled = await client.put("/globals/site", {
    fields: [
      { handle: "tagline", type: "text" },
      { handle: "title", type: "text" },
    ],
    title: "Acme & Sons",
  });
  expect(titled.status, titled.text).toBe(200);
  expect(titled.body).toMatchObject({ name: "Acme", title: "Acme & Sons" });
  const page = await siteGet(server, "/blog/hello", account.domain);
  expect(page.text).toContain("<title>Acme & Sons</title>");
  // Cleared, the global's name is its title again.
  expect((await client.put("/globals/site", { title: null })).status).toBe(200);
  expect((await siteGet(server, "/blog/hello", account.domain)).text).toContain("<title>Acme</title>");
});
