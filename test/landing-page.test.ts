// `/` on a host that is no account's domain (the server's own address, the first one a new user opens)
// answers 404 with a page pointing at the APIs; every other path there, and `/` of an account's domain,
// keep their plain 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    it(`answers / on ${host} with a 404 page linking GraphQL, the REST reference and the health check`, async () => {
      const response = await siteRequest(server, "/", host);
      expect(response.status).toBe(404);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(links(response.text)).toEqual(expect.arrayContaining(["/graphql", "/v1/docs", "/healthz"]));
      expect(response.text).toContain("No site is published at this address");
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
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.text).toBe("");
  });

  it("is not shown on an account's domain: its own site answers there", async () => {
    const response = await siteRequest(server, "/", account.domain);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain("/v1/docs");
  });
});
