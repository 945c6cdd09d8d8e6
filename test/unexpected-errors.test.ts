// An error nobody expected answers a masked 500 in the documented body and is logged with its stack,
// wherever it happens: here in the token lookup that the rate limit runs before any transport (the
// ApiToken table is renamed away under the running server, on both databases).
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { postgresStatement, startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  // Tokens read from the database on every request, so that the lookup meets the renamed table.
  server = await startServer({ LOOKUP_CACHE_MB: "0", RATE_LIMIT_PER_MINUTE: "" });
  account = await createAccount(server, "Unexpected");
});
afterAll(() => server?.stop());

function renameTable(from: string, to: string): Promise<void> {
  const sql = `ALTER TABLE "${from}" RENAME TO "${to}"`;
  if (usesPostgres) return postgresStatement(sql, server.env.DATABASE_URL);
  const db = new Database(join(String(server.env.CMS_DATA_DIR), "cms.db"), { timeout: 5_000 });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
  return Promise.resolve();
}

it("answers a failed token lookup with a masked 500 and logs its stack", async () => {
  const client = api(server, account);
  expect((await client.get("/collections")).status).toBe(200);
  const before = server.output.length;
  await renameTable("ApiToken", "ApiTokenAway");
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
    expect(graphql.body).toMatchObject({ error: "Internal server error", details: [] });
  } finally {
    await renameTable("ApiTokenAway", "ApiToken");
  }
  const logged = server.output.slice(before).join("\n");
  expect(logged).toMatch(/"msg":"unexpected error".*ApiToken/);
  expect((await client.get("/collections")).status).toBe(200);
});
