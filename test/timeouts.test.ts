// Request timeouts (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS): a client trickling its headers (slowloris)
// is cut off, a request whose body never completes is answered 503 with the error body, and the server
// keeps answering everyone else meanwhile.
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { expectCreated, expectError } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer({ REQUEST_TIMEOUT_MS: "1500", HEADERS_TIMEOUT_MS: "1000" });
  account = await createAccount(server, "Timeouts");
});
afterAll(() => server?.stop());

interface RawExchange {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<{ text: string; afterMs: number }>;
}

function openRaw(): Promise<RawExchange> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const started = Date.now();
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      const closed = new Promise<{ text: string; afterMs: number }>((done) =>
        socket.on("close", () =>
          done({ text: Buffer.concat(chunks).toString(), afterMs: Date.now() - started }),
        ),
      );
      resolve({ socket, closed });
    });
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}

/** Sends a collection create that declares 1,000 bytes of body and sends only `start` of it. */
function startCollectionPost(raw: RawExchange, start: string): void {
  raw.socket.write(
    [
      `POST /v1/accounts/${account.account_id}/collections HTTP/1.1`,
      "Host: x",
      `Authorization: Bearer ${account.token}`,
      "Content-Type: application/json",
      "Content-Length: 1000",
      "",
      start,
    ].join("\r\n"),
  );
}

async function stillServes(): Promise<void> {
  const response = await request(`${server.url}/v1/accounts/${account.account_id}/collections`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(response.status, response.text).toBe(200);
}

describe("slow clients", () => {
  it("closes a connection whose headers trickle in for longer than HEADERS_TIMEOUT_MS", async () => {
    const raw = await openRaw();
    raw.socket.write(`GET /v1/accounts/${account.account_id}/collections HTTP/1.1\r\nHost: x\r\n`);
    // One more header line every 200 ms, for ever: each keeps the connection alive but never ends.
    const trickle = setInterval(() => raw.socket.writable && raw.socket.write("X-Slow: 1\r\n"), 200);
    try {
      await stillServes();
      const { text, afterMs } = await raw.closed;
      expect(afterMs).toBeLessThan(5_000);
      expect(text === "" || text.startsWith("HTTP/1.1 408")).toBe(true);
    } finally {
      clearInterval(trickle);
      raw.socket.destroy();
    }
    await stillServes();
  });

  it("answers 503 with the error body when a request body never completes, then closes the connection", async () => {
    const raw = await openRaw();
    startCollectionPost(raw, '{"collection": {"title": "Sl');
    try {
      await stillServes();
      const { text, afterMs } = await raw.closed;
      expect(afterMs).toBeLessThan(6_000);
      // The 503 (chunked), then Node's 408 as it closes the connection whose body never came.
      expect(text).toMatch(/^HTTP\/1\.1 503 /);
      const body = /\{.*\}/.exec(text)?.[0] ?? "";
      const parsed = JSON.parse(body);
      const headers = new Headers({ "content-type": "application/json" });
      expectError({ status: 503, headers, body: parsed, text: body }, 503);
      expect(parsed.error).toMatch(/timed out/);
    } finally {
      raw.socket.destroy();
    }
    await stillServes();
    // Nothing half-sent was stored.
    const list = await request(`${server.url}/v1/accounts/${account.account_id}/collections`, {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(list.body.data).toEqual([]);
  });

  it("logs a client that leaves in the middle of its body as one request line, not an unexpected error", async () => {
    const before = server.output.length;
    const raw = await openRaw();
    startCollectionPost(raw, '{"collection": {"title": "Gone');
    await stillServes();
    raw.socket.destroy();
    const logged = async () => {
      for (let waited = 0; waited < 3_000; waited += 50) {
        const lines = server.output.slice(before).filter((line) => line.includes('"POST"'));
        if (lines.length > 0) return lines;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [];
    };
    const lines = await logged();
    expect(lines).toHaveLength(1);
    // 499, as nginx logs it: the client closed the connection before any answer was sent.
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ status: 499, aborted: true });
    expect(server.output.slice(before).join("\n")).not.toMatch(/unexpected error|"level":50/);
    await stillServes();
  });

  it("keeps serving while many slow clients hold connections", async () => {
    const raws = await Promise.all(Array.from({ length: 50 }, () => openRaw()));
    for (const raw of raws) raw.socket.write("GET / HTTP/1.1\r\n");
    try {
      for (let i = 0; i < 5; i++) await stillServes();
      const closed = await Promise.all(raws.map((raw) => raw.closed));
      for (const { afterMs } of closed) expect(afterMs).toBeLessThan(5_000);
    } finally {
      for (const raw of raws) raw.socket.destroy();
    }
  });
});

/**
 * Holds the database's write lock (SQLite: the file's; PostgreSQL: the entry's row) from another
 * connection until `release` is called, so that a write to the entry waits past the request timeout.
 */
async function holdWriteLock(entryId: string): Promise<{ release(): Promise<void> }> {
  if (usesPostgres) {
    const client = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await client.connect();
    await client.query("BEGIN");
    await client.query('SELECT 1 FROM "Entry" WHERE "id" = $1 FOR UPDATE', [entryId]);
    return {
      async release() {
        await client.query("ROLLBACK");
        await client.end();
      },
    };
  }
  const db = new Database(join(String(server.env.CMS_DATA_DIR), "cms.db"));
  db.exec("BEGIN IMMEDIATE");
  return {
    async release() {
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

describe("the request timeout cancels work", () => {
  it("a write answered 503 is not committed afterwards", { timeout: 30_000 }, async () => {
    const client = api(server, account);
    await expectCreated(
      client.post("/collections", {
        name: "Slow",
        handle: "slow",
        routing: "slow/:handle",
        blueprint: { fields: [] },
      }),
    );
    const created = await client.post("/collections/slow/entries", { handle: "kept", title: "Before" });
    expect(created.status, created.text).toBe(201);
    const lock = await holdWriteLock(created.body.id);
    // The write waits for the lock; the lock goes 1.5 s after the request's deadline (1.5 s).
    const released = new Promise<void>((resolve) =>
      setTimeout(() => void lock.release().then(resolve), 3_000),
    );
    const patched = await client.patch("/collections/slow/entries/kept", { title: "After" });
    await released;
    expect(patched.status, patched.text).toBe(503);
    expect(patched.body.error).toMatch(/timed out/);
    // Long enough for the write, had it gone on, to have committed.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const read = await client.get("/collections/slow/entries/kept");
    expect(read.status, read.text).toBe(200);
    expect(read.body.title).toBe("Before");
    // The server goes on writing normally.
    const later = await client.patch("/collections/slow/entries/kept", { title: "Later" });
    expect(later.status, later.text).toBe(200);
    expect(later.body.title).toBe("Later");
  });
});
