// Readiness (decisions.md "Running the service"): /readyz answers 503 while the database cannot be
// reached and 200 again once it can, while /healthz (the process is alive) stays 200 throughout.
// PostgreSQL only: the embedded SQLite database is a file opened in the server's own process, and no
// honest way makes `SELECT 1` fail on an open connection (removing or chmod-ing the file does not, and
// the tests run as root), so on SQLite the database is never "unreachable" and the test is skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "./helpers/api.ts";
import { postgresStatement, startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;

async function status(path: string): Promise<{ status: number; body: unknown }> {
  const { status, body } = await request(`${server.url}${path}`);
  return { status, body };
}

beforeAll(async () => {
  if (usesPostgres) server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe.runIf(usesPostgres)("readiness on PostgreSQL", () => {
  it("answers /readyz 503 while the database refuses connections, 200 once it accepts them again", async () => {
    const name = new URL(server.env.DATABASE_URL ?? "").pathname.slice(1);
    expect(name).toMatch(/^cms_test_[0-9a-f]+$/);
    expect(await status("/readyz")).toEqual({ status: 200, body: { status: "ready" } });

    // No new connections, and the server's open ones are cut: the database is out of reach.
    await postgresStatement(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await postgresStatement(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
      );
      expect(await status("/readyz")).toEqual({ status: 503, body: { status: "unavailable" } });
      expect(await status("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    } finally {
      await postgresStatement(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }

    expect(await status("/readyz")).toEqual({ status: 200, body: { status: "ready" } });
    expect(server.child.exitCode).toBeNull();
  });
});
