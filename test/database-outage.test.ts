// A lost database is a 503, not a 500: while the database cannot be reached, REST, GraphQL, MCP tool calls
// and site pages answer 503 with Retry-After and the documented error body; the outage is logged once
// ("database unreachable"), never as an unexpected error, and its end once ("database reachable again").
// PostgreSQL is reached through a TCP proxy the test stops and starts (the shared server keeps running).
// SQLite is a file the server keeps open: moving it away changes nothing (the open connection keeps
// writing to it), so its outage is a file that cannot be opened (its directory gone: SQLITE_CANTOPEN),
// or a failing or full disk (SQLITE_IOERR, SQLITE_FULL); the first is made here, on the real client.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "../src/db/connect-errors.ts";
import { serializedSqlite } from "../src/db/sqlite-adapter.ts";
import { toApiError } from "../src/schema/errors.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { waitFor } from "./helpers/contact-form.ts";
import { postRpc, toolCallMessage } from "./helpers/mcp.ts";
import { emptyInstance, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.ts";

let server: TestServer | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await proxy?.start().catch(() => {});
  await server?.stop();
  await proxy?.close();
});

const WRITERS = 8;
const UNAVAILABLE = {
  error: "Service unavailable",
  details: [{ path: "", message: "the database cannot be reached: retry in 5 s" }],
};

function expectUnavailable(response: ApiResponse, label: string): void {
  expect(response.status, `${label}: ${response.text}`).toBe(503);
  expect(response.headers.get("retry-after"), label).toBe("5");
}

async function graphqlCreate(account: TestAccount, handle: string): Promise<ApiResponse> {
  return request(`${server?.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: `mutation { entryCreate(account_id: "${account.account_id}", collection_id: "notes",
        input: { handle: "${handle}", title: "By GraphQL" }) { entry { id } } }`,
    }),
  });
}

describe.skipIf(usesPostgres)("an SQLite file that cannot be opened", () => {
  it("is the database out of reach: a 503 with Retry-After, not a 500", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cms-outage-"));
    rmSync(dataDir, { recursive: true, force: true });
    const file = join(dataDir, "cms.db");
    // A connection opened once the file's directory is gone (openDatabase makes the directory at start).
    const { PrismaClient } = await import("../src/generated/sqlite/client.ts");
    const db = new PrismaClient({
      adapter: serializedSqlite(file, { keepStatistics: false, synchronous: "full" }).factory,
    });
    try {
      const error = await db.account.findMany().catch((caught: unknown) => caught);
      expect(String(error)).toMatch(/directory does not exist|unable to open database file/);
      expect(isDatabaseUnreachable(error)).toBe(true);
      const answer = toApiError(error);
      expect({ status: answer.status, message: answer.message, details: answer.details }).toEqual({
        status: 503,
        message: UNAVAILABLE.error,
        details: UNAVAILABLE.details,
      });
      expect(answer.headers).toEqual({ "retry-after": "5" });
    } finally {
      await db.$disconnect().catch(() => {});
    }
  });
});

describe.runIf(usesPostgres)("a PostgreSQL server out of reach", () => {
  it("is answered 503 with Retry-After on every transport, logged once, and writes work again after", {
    timeout: 120_000,
  }, async () => {
    const instance = await emptyInstance();
    const env: NodeJS.ProcessEnv = {};
    proxy = await startTcpProxy(5432);
    const url = new URL(String(instance.env.DATABASE_URL));
    url.port = String(proxy.port);
    env.DATABASE_URL = url.toString();
    // No kept answers: each request goes to the database past its token's lookup (kept, as it is on a
    // server that has been answering).
    server = await instance.start({ ...env, READ_CACHE_MB: "0" });
    const account = await createAccount(server);
    const client: Api = api(server, account);
    await expectCreated(
      client.post("/templates", { template: { handle: "note", html: "<h1>{{ title }}</h1>" } }),
    );
    await expectCreated(
      client.post("/collections", {
        name: "Notes",
        handle: "notes",
        routing: "notes/:handle",
        template_handle: "note",
        blueprint: { fields: [] },
      }),
    );
    await expectCreated(client.post("/collections/notes/entries", { handle: "first", title: "First" }));

    await proxy.stop();
    const refused = await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const answers: [string, ApiResponse][] = [];
        for (let round = 0; round < 3; round++) {
          const handle = `w${writer}-${round}`;
          answers.push(["REST", await client.post("/collections/notes/entries", { handle, title: "x" })]);
          answers.push(["GraphQL", await graphqlCreate(account, `g-${handle}`)]);
        }
        return answers;
      }),
    );
    for (const [label, response] of refused.flat()) {
      expectUnavailable(response, label);
      if (label === "REST") expect(response.body).toEqual(UNAVAILABLE);
      else
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            message: "Service unavailable",
            extensions: expect.objectContaining({ code: "SERVICE_UNAVAILABLE" }),
          }),
        ]);
    }
    // MCP over HTTP: the request's token is checked before any tool runs, so the HTTP answer is the 503
    // (a tool failing the same way mid-call answers it in its error body: run-tool.ts, publicError).
    const save = { collection: "notes", handle: "by-mcp", title: "By MCP" };
    const rpc = await postRpc(server, account.token, toolCallMessage("entries_save", save));
    expectUnavailable(rpc, "MCP");
    expect(rpc.body).toEqual(UNAVAILABLE);
    const page = await siteGet(server, "/notes/first", account.domain);
    expect(page.status, page.text).toBe(503);
    expect(page.headers["retry-after"]).toBe("5");
    expect(JSON.parse(page.text)).toEqual(UNAVAILABLE);

    await proxy.start();
    const current = server;
    const back = (line: string) => line.includes('"msg":"database reachable again"');
    await waitFor(() => (current.output.some(back) ? true : undefined), 20_000);
    await expectCreated(client.post("/collections/notes/entries", { handle: "after", title: "After" }));
    expect((await siteGet(server, "/notes/after", account.domain)).status).toBe(200);

    const lines = server.output.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.msg === "unexpected error")).toEqual([]);
    const outage = lines.filter((line) => line.msg === "database unreachable");
    expect(outage).toHaveLength(1);
    expect(outage[0]).toMatchObject({ level: "error", error: expect.any(String) });
    const reachable = lines.find((line) => line.msg === "database reachable again");
    expect(reachable).toMatchObject({ level: "info", down_ms: expect.any(Number) });
    expect(reachable?.refused).toBeGreaterThanOrEqual(WRITERS * 6);
  });
});
