// Conditional GET of site pages (docs/api-notes.md "Caching and validators"): a page carries an ETag and
// Cache-Control, and If-None-Match answers 304 with no body when it names that tag, strong, weak
// (`W/"..."`) or in a list, as asset files do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { rawExchange, startServer, type TestServer } from "./helpers/server.ts";
import { siteGet, siteRequest } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
const page = (headers: Record<string, string> = {}) =>
  siteGet(server, "/notes/hello", account.domain, headers);

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Caching");
  await seedNotesSite(api(server, account));
});

afterAll(async () => {
  await server?.stop();
});

describe("page caching", () => {
  it("sends an ETag and Cache-Control with the page", async () => {
    const first = await page();
    expect(first.status).toBe(200);
    expect(first.text).toContain("<p>Hello</p>");
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    expect((await page()).headers.etag).toBe(first.headers.etag);
  });

  it("answers 304 with no body to the tag as sent, weak, or in a list", async () => {
    const etag = String((await page()).headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"a", ${etag}`, `W/"a",W/${etag}`, "*"]) {
      const revalidated = await page({ "if-none-match": ifNoneMatch });
      expect(revalidated.status, ifNoneMatch).toBe(304);
      expect(revalidated.text).toBe("");
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    }
  });

  it("answers 200 with the page to a tag that does not match", async () => {
    const etag = String((await page()).headers.etag);
    for (const ifNoneMatch of ['"other"', `W/"other", "a"`, etag.slice(1, -1)]) {
      const fresh = await page({ "if-none-match": ifNoneMatch });
      expect(fresh.status, ifNoneMatch).toBe(200);
      expect(fresh.text).toContain("<p>Hello</p>");
    }
  });

  it("answers HEAD with the headers of GET, Content-Length included, and no body", async () => {
    const got = await page();
    const head = await siteRequest(server, "/notes/hello", account.domain, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(got.text)));
    expect(head.headers.etag).toBe(got.headers.etag);
    expect(head.headers["content-type"]).toBe(got.headers["content-type"]);
    // HTTP clients drop a HEAD answer's body: only the bytes on the wire show that none was sent.
    const raw = await rawExchange(
      server,
      `HEAD /notes/hello HTTP/1.1\r\nHost: ${account.domain}\r\nConnection: close\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.endsWith("\r\n\r\n")).toBe(true);
  });
});
