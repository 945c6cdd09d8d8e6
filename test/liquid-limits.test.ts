// Known expensive Liquid patterns: each page answers a short 500 within the hard limit,
// and the server keeps serving other pages meanwhile and afterwards. Nor can a template read the server's
// files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
const page = (path: string) => siteGet(server, path, account.domain);

/** Templates by handle, each with a page at /t/<handle>. */
const patterns: Record<string, string> = {
  "nested-loops":
    "{% for a in (1..100000) %}{% for b in (1..100000) %}{% for c in (1..100000) %}.{% endfor %}{% endfor %}{% endfor %}",
  "huge-range": "{% for i in (1..2000000000) %}{{ i }}{% endfor %}",
  "string-doubling":
    '{% assign s = "xxxxxxxxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}',
  "render-recursion": "{% render 'recurse' %}",
  "include-recursion": "{% include 'loop' %}",
};
/** Templates naming server files by path, each with a page at /<handle>/p. */
const fileReads: Record<string, string> = {
  "include-passwd": "<main>{% include '/etc/passwd' %}</main>",
  "render-package": "<main>{% render '../../package.json' %}</main>",
  "layout-hostname": "{% layout '/etc/hostname' %}<main>body</main>",
};
const partials: Record<string, string> = {
  recurse: "<b>{% render 'recurse' %}</b>",
  loop: "{% include 'loop' %}{% include 'loop' %}",
};

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Expensive");
  client = api(server, account);
  for (const [handle, html] of Object.entries(partials)) {
    await expectCreated(client.post("/templates", { template: { handle, kind: "partial", html } }));
  }
  await expectCreated(
    client.post("/templates", { template: { handle: "fine", html: "<p>{{ title }}</p>" } }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Fine",
      handle: "fine",
      routing: "ok/:handle",
      template_handle: "fine",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(client.post("/collections/fine/entries", { handle: "page", title: "Still here" }));
  for (const [handle, html] of Object.entries({ ...patterns, ...fileReads })) {
    await expectCreated(client.post("/templates", { template: { handle, html } }));
    await expectCreated(
      client.post("/collections", {
        name: handle,
        handle,
        routing: `${handle}/:handle`,
        template_handle: handle,
        blueprint: { fields: [] },
      }),
    );
    await expectCreated(client.post(`/collections/${handle}/entries`, { handle: "p", title: handle }));
  }
});

afterAll(async () => {
  await server?.stop();
});

describe("expensive templates", () => {
  it.each(Object.keys(patterns))("stops %s with a short 500 and keeps serving", async (handle) => {
    const started = Date.now();
    const [stopped, meanwhile] = await Promise.all([page(`/${handle}/p`), page("/ok/page")]);
    expect(stopped.status, stopped.text.slice(0, 200)).toBe(500);
    expect(stopped.text).toBe("This page could not be rendered.\n");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(meanwhile.text).toContain("<p>Still here</p>");
    const after = await page("/ok/page");
    expect(after.status).toBe(200);
    expect(after.text).toContain("<p>Still here</p>");
  });
});

describe("file system", () => {
  // Partials and layouts come only from the account's templates (engine.ts): a path names no template,
  // so a partial renders as one the account lacks does, as an HTML comment naming it, and a layout fails
  // the page with the short 500; neither ever shows the file's bytes.
  it.each(Object.keys(fileReads))("%s shows none of the server's files", async (handle) => {
    const shown = await page(`/${handle}/p`);
    expect(shown.text).not.toContain("root:");
    expect(shown.text).not.toContain('"name"');
    if (handle.startsWith("layout")) {
      expect(shown.status).toBe(500);
      expect(shown.text).toBe("This page could not be rendered.\n");
    } else {
      expect(shown.status).toBe(200);
      expect(shown.text).toMatch(
        /^<main><!-- partial '(etc\/passwd|\.\.\/\.\.\/package\.json)' not found --><\/main>$/,
      );
    }
  });
});
