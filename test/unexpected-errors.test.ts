// An error nobody expected answers a masked 500 in the documented body and is logged with its stack,
// wherever it happens: here in the token lookup that the rate limit runs before any transport (the
// ApiToken table is renamed away under the running server, on both databases). What a client gets
// wrong before any transport is reached (a Host that makes no URL) is a 400, never the adapter's stack.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { renameTable } from "./helpers/database.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  // Tokens read from the database on every request, so that the lookup meets the renamed table.
  server = await startServer({ LOOKUP_CACHE_MB: "0", RATE_LIMIT_PER_MINUTE: "" });
  account = await createAccount(server, "Unexpected");
});
afterAll(() => server?.stop());

it("answers a failed token lookup with a masked 500 and logs its stack", async () => {
  const client = api(server, account);
  expect((await client.get("/collections")).status).toBe(200);
  const before = server.output.length;
  await renameTable(server, "ApiToken", "ApiTokenAway");
  try {
    const rest = await client.get("/collections");
    expect(rest.status).toBe(500);
    expect(rest.body).toEqual({ error: "Internal server error", details: [] });

    const graphql = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ collections { handle } }" }),
    });
    expect(graphql.status).toBe(500);
    expect(graphql.text).not.toMatch(/ApiToken|\n\s+at /);
    expect(graphql.body).toEqual({
      error: "Internal server error",
      details: [],
      errors: [
        { message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR", details: [] } },
      ],
    });
  } finally {
    await renameTable(server, "ApiTokenAway", "ApiToken");
  }
  const logged = server.output.slice(before).join("\n");
  expect(logged).toMatch(/"msg":"unexpected error".*ApiToken/);
  expect((await client.get("/collections")).status).toBe(200);
});

/** `fetch()` cannot set Host. */
function withHost(path: string, host: string): Promise<{ status: number; type: string; text: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ hostname, port, path, headers: { host } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers["content-type"]), text }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

it("answers a Host header that makes no URL with a 400 in the documented body, on every route", async () => {
  for (const host of ["example.test:99999", "x:abc", "a, b", "h:1:2"]) {
    for (const path of ["/healthz", "/", `/v1/accounts/${account.account_id}/collections`, "/graphql"]) {
      const answer = await withHost(path, host);
      expect({ host, path, status: answer.status, type: answer.type }).toEqual({
        host,
        path,
        status: 400,
        type: "application/json; charset=utf-8",
      });
      expect(JSON.parse(answer.text)).toEqual({
        error: "Invalid Host header",
        details: [{ path: "host", message: "is not a valid host" }],
      });
    }
  }
  expect((await withHost("/healthz", "localhost")).status).toBe(200);
});
