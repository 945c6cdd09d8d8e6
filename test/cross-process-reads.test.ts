// A write answered by one server process is read at once through another (CROSS_PROCESS_READS=at-once,
// the default), with no round trip before the other's reads: the writer waits until every listening
// process has heard the write (src/db/postgres-changes.ts). The reader here reaches PostgreSQL through a
// proxy that holds what the database sends it by 200 ms, so it hears every notification that late: a
// writer that did not wait would let it serve its kept answer. With `notified` the writer does not wait:
// while the reader's path holds everything, the write is answered and the reader serves the old answer,
// until it hears. The stdio tool interface (`cms mcp`) waits as a server process does. PostgreSQL only.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { stdioClient } from "./helpers/mcp.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { type PgPath, pgPath } from "./helpers/pg-path.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

const DELAY_MS = 200;

describe.skipIf(!usesPostgres)("a write through one process, read through another (PostgreSQL)", () => {
  let writer: TestServer;
  let notifiedWriter: TestServer;
  let reader: TestServer;
  let path: PgPath;
  let account: TestAccount;
  let write: Api;
  let writeNotified: Api;
  let read: Api;

  beforeAll(async () => {
    writer = await startServer();
    account = await createAccount(writer);
    write = api(writer, account);
    await seedNotesSite(write);
    path = await pgPath(writer.env.DATABASE_URL as string);
    path.slow(DELAY_MS);
    reader = await writer.twin({ DATABASE_URL: path.url });
    notifiedWriter = await writer.twin({ CROSS_PROCESS_READS: "notified" });
    read = api(reader, account);
    writeNotified = api(notifiedWriter, account);
  }, 60_000);

  afterAll(async () => {
    await reader?.stop();
    await notifiedWriter?.stop();
    await path?.close();
    await writer?.stop();
  });

  /** The entry's title through the reader, once kept there (the second read is answered from memory). */
  async function keptTitle(): Promise<string> {
    await read.get("/collections/notes/entries/hello");
    const kept = await read.get("/collections/notes/entries/hello");
    expect(kept.headers.get("x-cache")).toBe("hit");
    return kept.body.title;
  }

  it("at-once: the reader serves the write as soon as the writer has answered", async () => {
    for (let round = 1; round <= 3; round++) {
      expect(await keptTitle()).toBe(round === 1 ? "Hello" : `At once ${round - 1}`);
      const started = Date.now();
      const written = await write.patch("/collections/notes/entries/hello", { title: `At once ${round}` });
      expect(written.status, written.text).toBe(200);
      // The writer waited for the reader, which hears its barrier 200 ms late.
      expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
      const after = await read.get("/collections/notes/entries/hello");
      expect(after.body.title).toBe(`At once ${round}`);
    }
  });

  it("at-once: a save through `cms mcp` (stdio) is read at once through the reader", async () => {
    const { mcp } = await stdioClient(writer, ["--token", account.token], "cross-process");
    try {
      for (let round = 1; round <= 2; round++) {
        await keptTitle();
        const saved = await mcp.ok("entries_save", {
          collection: "notes",
          handle: "hello",
          title: `Over stdio ${round}`,
        });
        expect(saved.title).toBe(`Over stdio ${round}`);
        const after = await read.get("/collections/notes/entries/hello");
        expect(after.body.title).toBe(`Over stdio ${round}`);
      }
    } finally {
      await mcp.close();
    }
  });

  it("at-once: a write does not wait for a `cms mcp` process, which keeps nothing", async () => {
    await expectNotWaitedFor(async (databaseUrl) => {
      const { mcp } = await stdioClient(writer, ["--token", account.token], "keeps-nothing", {
        DATABASE_URL: databaseUrl,
      });
      await mcp.ok("entries_list", { collection: "notes" });
      return () => mcp.close();
    });
  });

  it("at-once: a write does not wait for a server with both caches off", async () => {
    await expectNotWaitedFor(async (databaseUrl) => {
      const uncached = await writer.twin({
        DATABASE_URL: databaseUrl,
        READ_CACHE_MB: "0",
        LOOKUP_CACHE_MB: "0",
      });
      return () => uncached.stop();
    });
  });

  /**
   * Starts a process on a path to the database that holds everything once it listens: were it waited for,
   * a write would wait the writers' 2 s answer timeout for it.
   */
  async function expectNotWaitedFor(start: (databaseUrl: string) => Promise<() => Promise<void>>) {
    const path = await pgPath(writer.env.DATABASE_URL as string);
    const listeners = await listenerCount();
    const stop = await start(path.url);
    try {
      while ((await listenerCount()) === listeners) await new Promise((resolve) => setTimeout(resolve, 20));
      path.hold();
      const started = Date.now();
      const written = await write.patch("/collections/notes/entries/hello", { title: "Not waited for" });
      expect(written.status, written.text).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      const after = await read.get("/collections/notes/entries/hello");
      expect(after.body.title).toBe("Not waited for");
    } finally {
      path.release();
      await stop();
      await path.close();
    }
  }

  /** Processes listening for changes on the database, whether others wait for them or not. */
  async function listenerCount(): Promise<number> {
    const client = new pg.Client({ connectionString: writer.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
           AND application_name LIKE 'cms changes listener%' AND application_name NOT LIKE '%(joining)'`,
      );
      return rows[0].n;
    } finally {
      await client.end();
    }
  }

  it("notified: the writer answers without waiting, and the reader serves the old answer until it hears", async () => {
    const before = await keptTitle();
    // The reader hears nothing from here on (a stalled or far process), within its lease (1.5 s): the
    // writer does not wait for it, and its kept answer is what it serves.
    path.hold();
    try {
      const started = Date.now();
      const written = await writeNotified.patch("/collections/notes/entries/hello", { title: "Notified" });
      expect(written.status, written.text).toBe(200);
      // Waiting for a process that cannot answer would take the writers' 2 s answer timeout.
      expect(Date.now() - started).toBeLessThan(1_000);
      const stale = await read.get("/collections/notes/entries/hello");
      expect(stale.body.title).toBe(before);
      expect(stale.headers.get("x-cache")).toBe("hit");
    } finally {
      path.release();
    }
    expect(await titleOnceHeard("Notified")).toBe("Notified");
  });

  /** The entry's title through the reader, once it is `expected` or after 5 s. */
  async function titleOnceHeard(expected: string): Promise<string> {
    const until = Date.now() + 5_000;
    for (;;) {
      const { body } = await read.get("/collections/notes/entries/hello");
      if (body.title === expected || Date.now() > until) return body.title;
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    }
  }
});
