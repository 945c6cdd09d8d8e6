// The API explorers in a real browser with no network beyond the server (Debian's Chromium driven by
// playwright-core; every request to another origin is aborted): GraphiQL at /graphql runs a query with a
// bearer token typed into its headers editor and shows the result, and the REST reference at /v1/docs
// renders its operations with Swagger UI. Both are served from installed packages, not from a CDN.
import { readFileSync, statSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Acme");
  await expectCreated(
    api(server, account).post("/collections", {
      name: "Offline Notes",
      handle: "offline-notes",
      routing: "notes/:handle",
      blueprint: { fields: [] },
    }),
  );
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page whose every request to another origin than the server's is aborted (and listed). */
async function offlinePage(): Promise<{ context: BrowserContext; page: Page; blocked: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const blocked: string[] = [];
  const origin = new URL(server.url).origin;
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || url.startsWith("blob:") || url.startsWith("data:"))
      return route.continue();
    blocked.push(url);
    return route.abort("internetdisconnected");
  });
  return { context, page: await context.newPage(), blocked };
}

/** The text an element shows, its spaces (Monaco's are no-break ones) made plain. */
async function shownText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, " ");
}

/** Replaces the text of GraphiQL's headers or variables editor (Monaco). */
async function typeInto(page: Page, editor: "headers" | "variables", text: string) {
  await page.locator(`.monaco-editor[data-uri$="-${editor}.json"]`).click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

describe("GraphiQL at /graphql", () => {
  it("loads with no network, documents the bearer header, and runs a query with a token", async () => {
    const { context, page, blocked } = await offlinePage();
    await page.goto(`${server.url}/graphql`);
    await page.locator(".graphiql-execute-button").waitFor({ timeout: 30_000 });
    await page.screenshot({ path: "/tmp/explorer-graphiql-start.png" });
    // The headers editor opens with the header every operation needs, waiting for a token.
    const tools = ".graphiql-editor-tool";
    expect(await shownText(page.locator(tools))).toContain('"Authorization": "Bearer <your API token>"');

    await typeInto(page, "headers", JSON.stringify({ Authorization: `Bearer ${account.token}` }));
    await page.getByRole("button", { name: "Variables" }).click();
    await typeInto(page, "variables", JSON.stringify({ account: account.account_id }));
    await page.locator(".graphiql-execute-button").click();
    const result = page.locator(".result-window");
    await expect(result.getByText('"offline-notes"').waitFor({ timeout: 15_000 })).resolves.toBeUndefined();
    await page.screenshot({ path: "/tmp/explorer-graphiql-result.png" });
    const shown = await shownText(result);
    expect(shown).toContain('"name": "Offline Notes"');
    expect(shown).not.toContain("errors");
    await context.close();
    expect(blocked).toEqual([]);
  }, 90_000);
});

describe("the REST reference at /v1/docs", () => {
  it("renders its operations with Swagger UI with no network", async () => {
    const { context, page, blocked } = await offlinePage();
    await page.goto(`${server.url}/v1/docs`);
    const operations = page.locator("#swagger-ui .opblock");
    await operations.first().waitFor({ timeout: 30_000 });
    expect(await operations.count()).toBeGreaterThan(40);
    // Swagger UI replaced the server-rendered reference.
    expect(await page.locator("#reference").count()).toBe(0);
    const create = page.locator("#operations-Collections-collectionCreate");
    await create.locator(".opblock-summary").click();
    await create.locator(".opblock-body").waitFor();
    const shown = await shownText(create);
    expect(shown).toContain("POST /accounts/{account_id}/collections Create a collection");
    expect(shown).toContain("Request body application/json");
    expect(shown).toContain("CollectionCreateInput");
    await page.screenshot({ path: "/tmp/explorer-swagger-ui.png" });
    await context.close();
    expect(blocked).toEqual([]);
  }, 90_000);
});

describe("the explorers' files", () => {
  const swaggerUi = new URL("../node_modules/swagger-ui-dist/", import.meta.url);
  const version = JSON.parse(readFileSync(new URL("package.json", swaggerUi), "utf8")).version;
  const base = `/v1/docs/swagger-ui-dist@${version}/`;

  it("are Swagger UI's, from the installed package, cached for a year under a versioned URL", async () => {
    const html = await (await fetch(`${server.url}/v1/docs`)).text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const [file, type] of [
      ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
      ["swagger-ui.css", "text/css; charset=utf-8"],
    ] as const) {
      expect(html).toContain(`"${base}${file}"`);
      const response = await fetch(`${server.url}${base}${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      // Compared whole (toEqual walks 1.7 MB byte by byte).
      const served = Buffer.from(await response.arrayBuffer());
      expect(served.equals(readFileSync(new URL(file, swaggerUi))), file).toBe(true);
      const head = await fetch(`${server.url}${base}${file}`, { method: "HEAD" });
      expect(head.headers.get("content-length")).toBe(String(statSync(new URL(file, swaggerUi)).size));
    }
  });

  it("are only the files named: no path reaches another file", async () => {
    for (const path of [
      `${base}../package.json`,
      `${base}..%2f..%2f..%2fpackage.json`,
      `${base}%2e%2e/%2e%2e/%2e%2e/package.json`,
      `${base}/swagger-ui.css`,
      `${base}package.json`,
      `${base}index.html`,
      `${base}swagger-ui.css.map`,
      "/v1/docs/swagger-ui-dist@0.0.1/swagger-ui.css",
      "/v1/docs/swagger-ui.css",
    ]) {
      const response = await siteRequest(server, path, "127.0.0.1");
      // Outside the package's files: the API's 401 (no token), or the site's 404 for a path that the
      // URL parser took out of /v1.
      expect([401, 404], path).toContain(response.status);
      expect(response.text, path).not.toContain("swagger-ui-dist");
    }
    const post = await fetch(`${server.url}${base}swagger-ui.css`, { method: "POST" });
    expect(post.status).toBe(401);
  });

  it("leave a reference readable with no script, its request bodies linked to their schemas", async () => {
    const html = await (await fetch(`${server.url}/v1/docs`)).text();
    expect(html).not.toContain("&#34;$ref&#34;: &#34;#/components");
    expect(html).toContain(
      'Body <code>application/json</code>: <a href="#schema-CollectionCreateInput">CollectionCreateInput</a>',
    );
    const targets = new Set([...html.matchAll(/href="#schema-([^"]+)"/g)].map((match) => match[1]));
    expect(targets.size).toBeGreaterThan(10);
    for (const target of targets) expect(html, target).toContain(`id="schema-${target}"`);
  });
});
