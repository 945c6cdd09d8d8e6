// The contact form of the fixture blog theme, filled and sent by a real browser (Debian's Chromium driven
// by playwright-core): with /cms/cms.js the post goes out in the background and the form shows its
// success message; without JavaScript it posts and the server redirects. Both land as unpublished
// entries with the typed values, read back through the REST entries endpoint.
import { readFileSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const themeDir = new URL("./fixtures/blog-theme/", import.meta.url);

let server: TestServer;
let account: TestAccount;
let client: Api;
let browser: Browser;
/** The contact page as a browser reaches it: the account's domain, resolved to the test server. */
let contactUrl: string;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Acme");
  client = api(server, account);
  // The theme's layout and the two templates the contact page uses.
  for (const [handle, kind] of [
    ["theme", "layout"],
    ["page", "template"],
    ["contact", "template"],
  ]) {
    const html = readFileSync(new URL(`${handle}.liquid`, themeDir), "utf8");
    await expectCreated(client.post("/templates", { template: { handle, kind, html } }));
  }
  await expectCreated(
    client.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: ":handle",
      root_routing: true,
      template_handle: "page",
      blueprint: { fields: [] },
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
      success_message: "Thanks, we got it!",
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
  const { port } = new URL(server.url);
  contactUrl = `http://${account.domain}:${port}/contact`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    // The account's domain resolves to the test server, so the browser sends it as Host.
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      `--host-resolver-rules=MAP ${account.domain} 127.0.0.1`,
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const messages = async () =>
  (await client.get("/collections/messages/entries")).body.data as Record<string, unknown>[];

describe("the contact form in a browser", () => {
  it("sends through cms.js, shows the success message in place, and lands as an unpublished entry", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(contactUrl);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Contact us");
    await page.fill('input[name="fields[name]"]', "Ada Lovelace");
    await page.fill('input[name="fields[email]"]', "ada@example.test");
    await page.fill('input[name="fields[message]"]', "Hello from Chromium");
    await page.click("#contact-form button");
    const status = page.locator("#contact-form .cms-form-message");
    await status.waitFor({ timeout: 5_000 });
    expect(await status.textContent()).toBe("Thanks, we got it!");
    expect(await status.getAttribute("data-cms-error")).toBeNull();
    // cms.js kept the visitor on the page and cleared the form.
    expect(new URL(page.url()).pathname).toBe("/contact");
    expect(await page.inputValue('input[name="fields[name]"]')).toBe("");
    await context.close();

    const [stored] = await messages();
    expect(stored).toMatchObject({
      published: false,
      name: "Ada Lovelace",
      email: "ada@example.test",
      message: "Hello from Chromium",
    });
    expect(stored?.title).toMatch(/^Contact - /);
  });

  it("posts without JavaScript too: the server redirects back to the page", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(contactUrl);
    await page.fill('input[name="fields[name]"]', "Grace Hopper");
    await page.fill('input[name="fields[email]"]', "grace@example.test");
    const [response] = await Promise.all([page.waitForNavigation(), page.click("#contact-form button")]);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/contact");
    await context.close();

    const stored = await messages();
    expect(stored.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(["Ada Lovelace", "Grace Hopper"]),
    );
    expect(stored.every((entry) => entry.published === false)).toBe(true);
  });
});
