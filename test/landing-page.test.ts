// `/` on a host that is no account's domain (the server's own address, the first one a new user opens)
// answers 200 with a page saying what the server is and pointing at the APIs; every other path there keeps
// its plain 404, and `/` of an account's domain stays the account's own site.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Acme");
});

afterAll(async () => {
  await server?.stop();
});

const links = (html: string) => [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]);

describe("the landing page of an unknown host", () => {
  for (const host of ["localhost:3000", "127.0.0.1", "nobody.example"]) {
    it(`answers / on ${host} with a 200 page linking GraphQL, the REST reference and the health check`, async () => {
      const response = await siteRequest(server, "/", host);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(links(response.text)).toEqual(expect.arrayContaining(["/graphql", "/v1/docs", "/healthz"]));
      expect(response.text).toContain("<h1>Content Management Service</h1>");
      expect(response.text).toContain("each account's public site");
    });
  }

  it("links addresses that answer", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const docs = await fetch(`${server.url}/v1/docs`);
    expect(docs.status).toBe(200);
    const graphiql = await fetch(`${server.url}/graphql`, { headers: { accept: "text/html" } });
    expect(graphiql.status).toBe(200);
    expect(await graphiql.text()).toContain("<title>Content Management Service</title>");
  });

  it("keeps the plain 404 on every other path of an unknown host", async () => {
    for (const path of ["/other", "/index.html", "//", "/graphql/"]) {
      const response = await siteRequest(server, path, "localhost");
      expect(response.status, path).toBe(404);
      expect(response.text, path).toBe("Not found\n");
    }
  });

  it("answers HEAD / with the landing page's headers and no body", async () => {
    const response = await siteRequest(server, "/", "localhost", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.text).toBe("");
  });

  it("is not shown on an account's domain: its own site answers there", async () => {
    const response = await siteRequest(server, "/", account.domain);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain("/v1/docs");
  });

  it("leaves an account's home page at / of its domain", async () => {
    const client = api(server, account);
    const template = await client.post("/templates", {
      template: { handle: "home", title: "Home", kind: "template", html: "<h1>{{ title }}</h1>" },
    });
    expect(template.status, template.text).toBe(201);
    const pages = await client.post("/collections", {
      name: "Pages",
      handle: "pages",
      routing: ":handle",
      root_routing: true,
      template_handle: "home",
      blueprint: { fields: [{ handle: "body", type: "text" }] },
    });
    expect(pages.status, pages.text).toBe(201);
    const home = await client.post("/collections/pages/entries", {
      handle: "index",
      title: "Acme own home",
    });
    expect(home.status, home.text).toBe(201);
    const response = await siteRequest(server, "/", account.domain);
    expect(response.status).toBe(200);
    expect(response.text).toContain("<h1>Acme own home</h1>");
    expect(response.text).not.toContain("/v1/docs");
  });
});
