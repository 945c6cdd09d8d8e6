// The SQLite adapter's transactions (src/db/sqlite-adapter.ts): they begin IMMEDIATE, a COMMIT that fails
// is rolled back and releases the connection for every later query, and queries issued while a
// transaction is open wait for its end instead of running inside it. The embedded database only, under
// either setting of TEST_DATABASE.
import { mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database as CmsDatabase, openDatabase, ping } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-sqlite-tx-"));
let database: CmsDatabase;

const account = (id: string) => ({ id, name: id, domain: `${id}.test` });

describe("SQLite transactions", () => {
  beforeAll(async () => {
    database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    await migrate(database);
  });

  afterAll(async () => {
    await database?.db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a COMMIT that fails is rolled back, and every later query and transaction proceeds", async () => {
    const { db } = database;
    const failed = db.$transaction(async (tx) => {
      // Foreign keys checked at COMMIT only: the token's missing account fails the COMMIT itself.
      await tx.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON");
      await tx.account.create({ data: account("acct_kept_out") });
      await tx.apiToken.create({ data: { id: "tok_orphan", accountId: "acct_missing", tokenHash: "h" } });
    });
    // Asked while the transaction is open: waits for its end, then sees nothing of it.
    const meanwhile = db.account.count();
    // Prisma passes the adapter's error on as it is (its kind as the message).
    await expect(failed).rejects.toMatchObject({
      cause: { kind: "ForeignKeyConstraintViolation", originalCode: "SQLITE_CONSTRAINT_FOREIGNKEY" },
    });
    expect(await meanwhile).toBe(0);

    const answered = await Promise.race([
      db.account.findMany().then((rows) => rows.map((row) => row.id)),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
    ]);
    expect(answered).toEqual([]);
    await db.$transaction(async (tx) => {
      await tx.account.create({ data: account("acct_after") });
    });
    await db.account.create({ data: account("acct_plain") });
    expect((await db.account.findMany({ orderBy: { id: "asc" } })).map((row) => row.id)).toEqual([
      "acct_after",
      "acct_plain",
    ]);
  });

  it("a rolled-back transaction releases the connection too", async () => {
    const { db } = database;
    await expect(
      db.$transaction(async (tx) => {
        await tx.account.create({ data: account("acct_rolled_back") });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.account.findUnique({ where: { id: "acct_rolled_back" } })).toBeNull();
    await db.account.create({ data: account("acct_next") });
    expect(await db.account.findUnique({ where: { id: "acct_next" } })).not.toBeNull();
  });

  it("begins IMMEDIATE: another connection cannot write while a transaction is open, even before its first write", async () => {
    const { db } = database;
    const other = new Database(join(dir, "cms.db"), { timeout: 0 });
    try {
      await db.$transaction(async (tx) => {
        await tx.account.findMany();
        // A deferred transaction that has only read holds no write lock; an immediate one does.
        expect(() =>
          other
            .prepare(
              "INSERT INTO \"Account\" (id, name, domain, updatedAt) VALUES ('acct_other', 'o', 'o.test', 0)",
            )
            .run(),
        ).toThrow(/locked|busy/i);
      });
      other
        .prepare(
          "INSERT INTO \"Account\" (id, name, domain, updatedAt) VALUES ('acct_other', 'o', 'o.test', 0)",
        )
        .run();
    } finally {
      other.close();
    }
    expect(await db.account.findUnique({ where: { id: "acct_other" } })).not.toBeNull();
  });

  it("transactions asked at once run one after another, with queries in between seeing only committed rows", async () => {
    const { db } = database;
    const ids = Array.from({ length: 8 }, (_, index) => `acct_many_${index}`);
    const counts: number[] = [];
    await Promise.all([
      ...ids.map((id) =>
        db
          .$transaction(async (tx) => {
            await tx.account.create({ data: account(id) });
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (id.endsWith("3")) throw new Error("undone");
          })
          .catch(() => {}),
      ),
      ...ids.map(() =>
        db.account.count({ where: { id: { startsWith: "acct_many_" } } }).then((n) => counts.push(n)),
      ),
    ]);
    const kept = await db.account.findMany({
      where: { id: { startsWith: "acct_many_" } },
      orderBy: { id: "asc" },
    });
    expect(kept.map((row) => row.id)).toEqual(ids.filter((id) => !id.endsWith("3")));
    expect(counts.every((n) => n <= ids.length - 1)).toBe(true);
  });

  it("keeps temporary files in memory, so that a write's triggers open none", async () => {
    // SQLite's numbers: 0 DEFAULT (files), 1 FILE, 2 MEMORY.
    const [row] = await database.db.$queryRawUnsafe<{ temp_store: number }[]>("PRAGMA temp_store");
    expect(Number(row?.temp_store)).toBe(2);
  });

  it("commits with synchronous = FULL by default, NORMAL with SQLITE_SYNCHRONOUS=normal", async () => {
    // SQLite's numbers: 1 NORMAL, 2 FULL.
    expect(await level(database.db)).toBe(2);
    const fast = await openDatabase({ dataDir: dir, databaseUrl: undefined, sqliteSynchronous: "normal" });
    try {
      expect(await level(fast.db)).toBe(1);
      await fast.db.account.create({ data: account("acct_normal") });
      expect(await database.db.account.count({ where: { id: "acct_normal" } })).toBe(1);
    } finally {
      await fast.close();
    }
  });
});

/** The connection's `synchronous` level: SQLite's numbers, 1 NORMAL and 2 FULL. */
const level = async (db: CmsDatabase["db"]) =>
  Number((await db.$queryRawUnsafe<{ synchronous: number }[]>("PRAGMA synchronous"))[0]?.synchronous);
