// Templates over REST (content-api.md "Template", "Endpoints > Templates", "Errors"; decisions.md "REST
// decisions": `kind`, folder handles, 422 on `html` for invalid Liquid, the list envelope, 201/204; README
// "API notes > Templates"). Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own handles. */
let client: Api;
/** Only the templates of the list tests. */
let listed: Api;
/** Another account, on its own path. */
let other: Api;
/** The other account's token on the main account's path. */
let otherOnMain: Api;

const LIST_COUNT = 23;
const pad = (n: number) => String(n).padStart(2, "0");

/** Every response field of a template. */
function shape(handle: string, title: string, kind: string, html: string) {
  return {
    id: expect.stringMatching(/^tmplt_/),
    handle,
    title,
    kind,
    html,
    warnings: [],
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
  };
}

async function createTemplate(
  handle: string,
  html = `<p>${handle}</p>`,
  extra: Record<string, unknown> = {},
) {
  return expectCreated(client.post("/templates", { template: { title: handle, handle, html, ...extra } }));
}

/** A collection with an inline blueprint, so that entries can be created in it. */
async function collection(handle: string, extra: Record<string, unknown> = {}) {
  return expectCreated(
    client.post("/collections", {
      name: handle,
      handle,
      routing: `${handle}/:handle`,
      blueprint: { handle: `${handle}-fields`, fields: [{ handle: "body", type: "text" }] },
      ...extra,
    }),
  );
}

/** A 422 on `html` whose message is the parser's, with the line. */
function expectLiquid422(response: Awaited<ReturnType<Api["post"]>>, label: string): void {
  const details = expectError(response, 422, "html");
  expect(details[0]?.message, label).toMatch(/line:\s*\d+/);
}

beforeAll(async () => {
  server = await startServer();
  const [main, second, third] = await Promise.all([
    createAccount(server, "Main"),
    createAccount(server, "Listed"),
    createAccount(server, "Other"),
  ]);
  client = api(server, main);
  listed = api(server, second);
  other = api(server, third);
  otherOnMain = api(server, main, third.token);
  // Titles sort opposite to handles, and creation order is shuffled.
  const order = Array.from({ length: LIST_COUNT }, (_, i) => ((i * 7) % LIST_COUNT) + 1);
  expect(new Set(order).size).toBe(LIST_COUNT);
  for (const n of order) {
    const response = await listed.post("/templates", {
      template: { title: `Title ${pad(LIST_COUNT + 1 - n)}`, handle: `t-${pad(n)}`, html: `<i>${n}</i>` },
    });
    expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.stop());

describe("POST /templates", () => {
  it("creates from a wrapped body: 201 with every field", async () => {
    const html = "<h1>{{ title }}</h1>";
    const response = await client.post("/templates", {
      template: { title: "Post page", handle: "post-page", html, kind: "template" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual(shape("post-page", "Post page", "template", html));
    expect(response.body.created_at).toBe(response.body.updated_at);
    expect((await client.get(`/templates/${response.body.id}`)).body).toEqual(response.body);
  });

  it("creates from an unwrapped body", async () => {
    const html = "<main>{{ content_for_layout }}</main>";
    const body = await expectCreated(
      client.post("/templates", { title: "Site", handle: "unwrapped-layout", html, kind: "layout" }),
    );
    expect(body).toEqual(shape("unwrapped-layout", "Site", "layout", html));
  });

  it("defaults kind to template and accepts layout and partial", async () => {
    expect(await createTemplate("kind-default")).toMatchObject({ kind: "template" });
    expect(await createTemplate("kind-layout", "<div></div>", { kind: "layout" })).toMatchObject({
      kind: "layout",
    });
    expect(await createTemplate("kind-partial", "<b></b>", { kind: "partial" })).toMatchObject({
      kind: "partial",
    });
    expect((await client.get("/templates/kind-partial")).body.kind).toBe("partial");
  });

  it("refuses an unknown kind (422 on kind), saving nothing", async () => {
    expect422(
      await client.post("/templates", { template: { handle: "bad-kind", html: "x", kind: "snippet" } }),
      "kind",
    );
    expect((await client.get("/templates/bad-kind")).status).toBe(404);
  });

  it("defaults the title to the handle", async () => {
    const body = await expectCreated(
      client.post("/templates", { template: { handle: "no-title", html: "x" } }),
    );
    expect(body).toEqual(shape("no-title", "no-title", "template", "x"));
  });

  it("defaults the handle to the title's slug", async () => {
    const body = await expectCreated(
      client.post("/templates", { template: { title: "Blog Index: Page!", html: "y" } }),
    );
    expect(body).toEqual(shape("blog-index-page", "Blog Index: Page!", "template", "y"));
  });

  it("accepts folder handles, read back with an encoded slash", async () => {
    const body = await createTemplate("pages/about", "<p>About</p>");
    expect(body).toEqual(shape("pages/about", "pages/about", "template", "<p>About</p>"));
    const read = await client.get("/templates/pages%2Fabout");
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(body);
    const deeper = await createTemplate("pages/legal/terms");
    expect((await client.get("/templates/pages%2Flegal%2Fterms")).body).toEqual(deeper);
  });

  it.each([
    "Upper",
    "with space",
    "/leading",
    "trailing/",
    "double//slash",
    "-dash",
    "pages/-dash",
    "dot.liquid",
    "tmplt_01m86qk4y29vy2ej45c6gzafpx",
    "",
  ])("refuses the handle %j (422 on handle)", async (handle) => {
    expect422(await client.post("/templates", { template: { title: "T", handle, html: "x" } }), "handle");
  });

  it("refuses a duplicate handle (422 on handle) and keeps the first", async () => {
    const first = await createTemplate("dup", "first");
    expect422(
      await client.post("/templates", { template: { title: "Again", handle: "dup", html: "second" } }),
      "handle",
    );
    expect((await client.get("/templates/dup")).body).toEqual(first);
  });

  it("refuses a body without html (422 on html)", async () => {
    expect422(await client.post("/templates", { template: { title: "No html", handle: "no-html" } }), "html");
  });

  it.each([
    ["an unclosed if", "<p>\n{% if x %}\nyes"],
    ["a for closed by endif", "{% for item in items %}{{ item }}{% endif %}"],
    ["an unclosed form_for", "{% form_for 'contact' %}\n<input>"],
    ["an unclosed query", "{% query collection: 'posts' %}{{ query.total }}"],
    ["an unclosed output", "<p>{{ title </p>"],
    ["an unknown tag", "{% no_such_tag %}"],
  ])("refuses invalid Liquid: %s (422 on html, with the line)", async (label, html) => {
    const response = await client.post("/templates", {
      template: { title: "Bad", handle: "bad-liquid", html },
    });
    expectLiquid422(response, label);
    expect((await client.get("/templates/bad-liquid")).status).toBe(404);
  });

  it("reports the line of the error", async () => {
    const response = await client.post("/templates", {
      template: { handle: "bad-line", html: "<p>one</p>\n<p>two</p>\n{% if x %}\n" },
    });
    const details = expectError(response, 422, "html");
    expect(details[0]?.message).toMatch(/line:\s*3/);
  });

  it("accepts the CMS tags form_for, cms_scripts and query", async () => {
    const html = [
      "{% cms_scripts %}",
      "{% form_for 'contact' %}{% for field in form.fields %}{{ field.label }}{% endfor %}{% endform_for %}",
      '{% form_for form: "contact", class: "f", redirect: "/thanks" %}<button>Send</button>{% endform_for %}',
      '{% query collection: "posts", order_by: "position", order_dir: "asc", per_page: 10 %}',
      "{% for e in query.entries %}{{ e.title }}{% endfor %}{{ query.total }}",
      "{% endquery %}",
      "{{ content_for_header }}",
    ].join("\n");
    const body = await createTemplate("cms-tags", html);
    expect(body.html).toBe(html);
  });

  it("accepts standard Liquid and unknown filters (resolved at render time)", async () => {
    const html =
      "{% render 'byline', author: author %}{{ image | asset_url | image_tag }}{% raw %}{% if %}{% endraw %}";
    expect((await createTemplate("standard-liquid", html)).html).toBe(html);
  });
});

describe("warnings", () => {
  it("lists each partial rendered or included by name that the account lacks, and saves all the same", async () => {
    await createTemplate("warn-known", "<b>known</b>", { kind: "partial" });
    const html =
      "{% render 'warn-nope' %}{%- include \"warn-missing-inc\", a: 1 %}{% render 'warn-known' %}{% render 'warn-nope' %}{% render entry.kind %}";
    const created = await createTemplate("warns", html);
    expect(created.html).toBe(html);
    expect(created.warnings).toEqual([
      "partial 'warn-nope' not found: the page shows nothing in its place",
      "partial 'warn-missing-inc' not found: the page shows nothing in its place",
    ]);
    // Once the partial exists, reads and the next save no longer list it.
    await createTemplate("warn-nope", "<i>now here</i>", { kind: "partial" });
    expect((await client.get("/templates/warns")).body.warnings).toEqual([
      "partial 'warn-missing-inc' not found: the page shows nothing in its place",
    ]);
    const updated = await client.put("/templates/warns", {
      template: { html: "{% include 'warn-gone' %}{% render 'warn-nope' %}" },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.warnings).toEqual([
      "partial 'warn-gone' not found: the page shows nothing in its place",
    ]);
  });
});

describe("GET /templates/:id", () => {
  it("reads by prefix ID and by handle", async () => {
    const created = await createTemplate("readable", "<p>r</p>", { kind: "partial" });
    const byId = await client.get(`/templates/${created.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created);
    const byHandle = await client.get("/templates/readable");
    expect(byHandle.status).toBe(200);
    expect(byHandle.body).toEqual(created);
  });

  it("answers 404 for an unknown handle or ID", async () => {
    expectError(await client.get("/templates/nope"), 404);
    expectError(await client.get("/templates/tmplt_doesnotexist"), 404);
    expectError(await client.get("/templates/pages%2Fnope"), 404);
  });
});

describe("GET /templates", () => {
  const handles = Array.from({ length: LIST_COUNT }, (_, i) => `t-${pad(i + 1)}`);

  it("lists the first page sorted by handle, in the envelope", async () => {
    const response = await listed.get("/templates");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["data", "pagination"]);
    expect(response.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: LIST_COUNT,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(response.body.data.map((t: any) => t.handle)).toEqual(handles.slice(0, 20));
    expect(response.body.data[0]).toEqual(shape("t-01", `Title ${pad(LIST_COUNT)}`, "template", "<i>1</i>"));
  });

  it("lists the second page", async () => {
    const response = await listed.get("/templates?page=2");
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: LIST_COUNT,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });
    expect(response.body.data.map((t: any) => t.handle)).toEqual(handles.slice(20));
  });

  it("sorts folder handles among the others", async () => {
    const response = await client.get("/templates");
    const all: string[] = [];
    for (let page = 1; page <= response.body.pagination.total_pages; page++) {
      all.push(...(await client.get(`/templates?page=${page}`)).body.data.map((t: any) => t.handle));
    }
    expect(all).toEqual([...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("filters by exact handle", async () => {
    const response = await listed.get("/templates?handle=t-07");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      shape("t-07", `Title ${pad(LIST_COUNT - 6)}`, "template", "<i>7</i>"),
    ]);
    expect(response.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    const none = await listed.get("/templates?handle=t-7");
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it("filters by a folder handle", async () => {
    await createTemplate("filter/me");
    const response = await client.get(`/templates?handle=${encodeURIComponent("filter/me")}`);
    expect(response.body.data.map((t: any) => t.handle)).toEqual(["filter/me"]);
  });
});

describe("PUT and PATCH /templates/:id", () => {
  it("PUT changes only the fields sent (wrapped)", async () => {
    const created = await createTemplate("put-me", "<p>old</p>", { kind: "partial" });
    const response = await client.put("/templates/put-me", { template: { html: "<p>new</p>" } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ...created, html: "<p>new</p>", updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await client.get(`/templates/${created.id}`)).body).toEqual(response.body);
  });

  it("PATCH changes only the fields sent, wrapped or not, by ID", async () => {
    const created = await createTemplate("patch-me", "<p>a</p>");
    const wrapped = await client.patch(`/templates/${created.id}`, { template: { title: "Patched" } });
    expect(wrapped.status, wrapped.text).toBe(200);
    expect(wrapped.body).toEqual({ ...created, title: "Patched", updated_at: expect.stringMatching(ISO) });
    const bare = await client.patch(`/templates/${created.id}`, { kind: "layout" });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toEqual({
      ...created,
      title: "Patched",
      kind: "layout",
      updated_at: expect.stringMatching(ISO),
    });
  });

  it("PATCH on a folder handle", async () => {
    await createTemplate("pages/patched");
    const response = await client.patch("/templates/pages%2Fpatched", { template: { html: "<p>z</p>" } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ handle: "pages/patched", html: "<p>z</p>" });
  });

  it("re-validates html on update (422 on html), changing nothing", async () => {
    const created = await createTemplate("revalidate", "<p>ok</p>");
    expectLiquid422(
      await client.put("/templates/revalidate", { template: { html: "{% if x %}" } }),
      "PUT unclosed if",
    );
    expectLiquid422(
      await client.patch("/templates/revalidate", { template: { html: "{% form_for 'c' %}", title: "T2" } }),
      "PATCH unclosed form_for",
    );
    expect((await client.get("/templates/revalidate")).body).toEqual(created);
  });

  it("refuses an invalid kind, an invalid handle or a taken handle on update", async () => {
    const created = await createTemplate("update-checks");
    await createTemplate("update-taken");
    expect422(await client.patch("/templates/update-checks", { template: { kind: "page" } }), "kind");
    expect422(
      await client.patch("/templates/update-checks", { template: { handle: "Bad Handle" } }),
      "handle",
    );
    expect422(
      await client.patch("/templates/update-checks", { template: { handle: "update-taken" } }),
      "handle",
    );
    expect((await client.get("/templates/update-checks")).body).toEqual(created);
  });

  it("answers 404 when updating an unknown template", async () => {
    expectError(await client.patch("/templates/ghost", { template: { html: "x" } }), 404);
  });
});

describe("template references", () => {
  it("refuses a collection naming an unknown template (422 on the field)", async () => {
    expect422(
      await client.post("/collections", {
        name: "Unknown tpl",
        handle: "unknown-tpl",
        routing: "unknown-tpl/:handle",
        template_handle: "no-such-template",
      }),
      "template_handle",
    );
  });

  it("accepts a folder handle as a collection's template", async () => {
    await createTemplate("folders/post");
    const created = await collection("folder-tpl", { template_handle: "folders/post" });
    expect(created.template_handle).toBe("folders/post");
  });

  it("renaming a template updates the collections and entries that name it", async () => {
    await createTemplate("ren-post");
    await createTemplate("ren-theme", "<main>{{ content_for_layout }}</main>", { kind: "layout" });
    await createTemplate("ren-index");
    await createTemplate("ren-untouched");
    await collection("ren-col", {
      template_handle: "ren-post",
      layout_handle: "ren-theme",
      index_template_handle: "ren-index",
      index_routing: "ren-col",
    });
    const bystander = await collection("ren-other", { template_handle: "ren-untouched" });
    const entry = await expectCreated(
      client.post("/collections/ren-col/entries", {
        title: "Entry",
        handle: "entry",
        template_handle: "ren-post",
        layout_handle: "ren-theme",
      }),
    );
    expect(entry).toMatchObject({ template_handle: "ren-post", layout_handle: "ren-theme" });

    const renamed = await client.patch("/templates/ren-post", { template: { handle: "pages/ren-post" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.handle).toBe("pages/ren-post");
    const layout = await client.put("/templates/ren-theme", { template: { handle: "ren-layout" } });
    expect(layout.status, layout.text).toBe(200);
    const index = await client.patch("/templates/ren-index", { handle: "ren-list" });
    expect(index.status, index.text).toBe(200);

    expect((await client.get("/collections/ren-col")).body).toMatchObject({
      template_handle: "pages/ren-post",
      layout_handle: "ren-layout",
      index_template_handle: "ren-list",
    });
    expect((await client.get("/collections/ren-col/entries/entry")).body).toMatchObject({
      template_handle: "pages/ren-post",
      layout_handle: "ren-layout",
    });
    expect((await client.get("/collections/ren-other")).body.template_handle).toBe(bystander.template_handle);
    expectError(await client.get("/templates/ren-post"), 404);
    expect((await client.get("/templates/pages%2Fren-post")).body.id).toBe(renamed.body.id);
  });
});

describe("DELETE /templates/:id", () => {
  it("deletes an unused template: 204, empty body, then 404", async () => {
    const created = await createTemplate("delete-me");
    const response = await client.delete(`/templates/${created.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectError(await client.get(`/templates/${created.id}`), 404);
    expectError(await client.get("/templates/delete-me"), 404);
    expectError(await client.delete("/templates/delete-me"), 404);
  });

  it("deletes by folder handle", async () => {
    await createTemplate("pages/gone");
    const response = await client.delete("/templates/pages%2Fgone");
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectError(await client.get("/templates/pages%2Fgone"), 404);
  });

  it("refuses to delete a template a collection names (409 on handle), until it no longer does", async () => {
    for (const field of ["template_handle", "layout_handle", "index_template_handle"]) {
      const handle = `del-col-${field.replaceAll("_", "-")}`;
      const created = await createTemplate(handle);
      await collection(`c-${handle}`, {
        [field]: handle,
        ...(field === "index_template_handle" && { index_routing: `c-${handle}-index` }),
      });
      expectError(await client.delete(`/templates/${handle}`), 409, "handle");
      expect((await client.get(`/templates/${handle}`)).body).toEqual(created);
      const cleared = await client.patch(`/collections/c-${handle}`, { [field]: null });
      expect(cleared.status, cleared.text).toBe(200);
      const response = await client.delete(`/templates/${handle}`);
      expect(response.status, `${field}: ${response.text}`).toBe(204);
      expect(response.text).toBe("");
    }
  });

  it("refuses to delete a template an entry names (409 on handle), until it no longer does", async () => {
    await createTemplate("del-entry-tpl");
    await createTemplate("del-entry-layout", "{{ content_for_layout }}", { kind: "layout" });
    await collection("del-entries");
    await expectCreated(
      client.post("/collections/del-entries/entries", {
        title: "E",
        handle: "e",
        template_handle: "del-entry-tpl",
        layout_handle: "del-entry-layout",
      }),
    );
    expectError(await client.delete("/templates/del-entry-tpl"), 409, "handle");
    expectError(await client.delete("/templates/del-entry-layout"), 409, "handle");
    const cleared = await client.patch("/collections/del-entries/entries/e", {
      template_handle: null,
      layout_handle: null,
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await client.delete("/templates/del-entry-tpl")).status).toBe(204);
    expect((await client.delete("/templates/del-entry-layout")).status).toBe(204);
  });
});

describe("accounts", () => {
  it("another account's token on this account's path gets 403", async () => {
    const created = await createTemplate("private");
    expectError(await otherOnMain.get("/templates"), 403);
    expectError(await otherOnMain.get(`/templates/${created.id}`), 403);
    expectError(await otherOnMain.get("/templates/private"), 403);
    expectError(await otherOnMain.post("/templates", { template: { handle: "intruder", html: "x" } }), 403);
    expectError(await otherOnMain.patch("/templates/private", { template: { html: "x" } }), 403);
    expectError(await otherOnMain.delete(`/templates/${created.id}`), 403);
    expect((await client.get("/templates/private")).body).toEqual(created);
    expectError(await client.get("/templates/intruder"), 404);
  });

  it("its own path with this account's handle or ID gets 404", async () => {
    const created = await createTemplate("mine");
    expectError(await other.get(`/templates/${created.id}`), 404);
    expectError(await other.get("/templates/mine"), 404);
    expectError(await other.put(`/templates/${created.id}`, { template: { html: "x" } }), 404);
    expectError(await other.patch("/templates/mine", { template: { html: "x" } }), 404);
    expectError(await other.delete(`/templates/${created.id}`), 404);
    expectError(await other.delete("/templates/mine"), 404);
    const list = await other.get("/templates?handle=mine");
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect((await client.get("/templates/mine")).body).toEqual(created);
  });

  it("handles are per account: another account may use the same handle", async () => {
    const mine = await createTemplate("shared-handle");
    const theirs = await expectCreated(
      other.post("/templates", { template: { handle: "shared-handle", html: "theirs" } }),
    );
    expect(theirs.id).not.toBe(mine.id);
    expect((await client.get("/templates/shared-handle")).body.html).toBe(mine.html);
  });

  it("an unknown token gets 401", async () => {
    const stranger = api(server, client.account, "not-a-token");
    expectError(await stranger.get("/templates"), 401);
  });
});
