// Hostile paths on the public site: encoded NUL and other control characters, backslashes and broken
// percent-encoding name no page and are a 404 (never a 500), on pages, the form submit path and assets;
// page numbers past any limit are not a 500 either.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Paths");
});
afterAll(() => server?.stop());

function status(path: string, method = "GET"): Promise<number> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method, headers: { host: account.domain } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

it.each([
  "/%00",
  "/blog/%00x",
  "/%0a%0d",
  "/%7f",
  "/a%5Cb",
  "/%E0%A4%A",
  "/robots.txt%00",
  "/cms/%00/submit",
  "/assets/%00",
  "/assets/x%00.png",
])("answers 404 to GET %s", async (path) => {
  expect(await status(path)).toBe(404);
});

it("answers a form post to a NUL form handle with a 4xx", async () => {
  const answer = await status("/cms/%00/submit", "POST");
  expect(answer).toBeGreaterThanOrEqual(400);
  expect(answer).toBeLessThan(500);
});

it.each(["/?page=99999999999999999999", "/blog?page=2147483648", "/?page=1e30"])(
  "answers GET %s without a 500 (a page number past GraphQL's Int)",
  async (path) => {
    expect(await status(path)).toBeLessThan(500);
  },
);
