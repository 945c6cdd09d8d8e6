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

  it("commits with synchronous = NORMAL, and by default answers a write once the WAL is flushed, off the event loop", async () => {
    // The data file is a symbolic link: SQLite names the WAL after the real file, and that is the one flushed.
    const real = mkdtempSync(join(tmpdir(), "cms-sqlite-flush-"));
    const linked = mkdtempSync(join(tmpdir(), "cms-sqlite-link-"));
    writeFileSync(join(real, "cms.db"), "");
    symlinkSync(join(real, "cms.db"), join(linked, "cms.db"));
    const flushing = await openDatabase({ dataDir: linked, databaseUrl: undefined });
    await migrate(flushing);
    const { db } = flushing;
    // SQLite's numbers: 1 NORMAL, 2 FULL. The default flushes each write itself (src/db/wal-flush.ts).
    expect(await level(db)).toBe(1);
    const gate = closedGate();
    const synced: string[] = [];
    const syncs = vi.spyOn(prototype, "datasync").mockImplementation(function (this: FileHandle) {
      synced.push(readlinkSync(`/proc/self/fd/${this.fd}`));
      return gate.opened.then(() => datasync.call(this));
    });
    try {
      const single = db.account.create({ data: account("acct_flushed") });
      const inTransaction = db.$transaction(async (tx) =>
        tx.account.create({ data: account("acct_flushed_tx") }),
      );
      const more = [1, 2, 3, 4].map((n) => db.account.create({ data: account(`acct_flushed_${n}`) }));
      const answered = watchSettled({ single, inTransaction, more: Promise.all(more) });
      // Committed and readable, and reads are not held; but no write is answered while its flush runs.
      await vi.waitFor(async () => expect(await db.account.count()).toBe(6), { timeout: 10_000 });
      expect(answered).toEqual({ single: false, inTransaction: false, more: false });
      // One flush runs; every write that committed after it began waits for the one next, which they share.
      expect(syncs).toHaveBeenCalledTimes(1);
      gate.open();
      await Promise.all([single, inTransaction, ...more]);
      expect(syncs).toHaveBeenCalledTimes(2);
      expect(synced).toEqual([`${realpathSync(real)}/cms.db-wal`, `${realpathSync(real)}/cms.db-wal`]);
    } finally {
      gate.open();
      syncs.mockRestore();
    }

    // After a flush that fails the connection answers nothing, and the health and readiness checks say so:
    // the disk's state is not known any more. The write it was for committed all the same; a transaction
    // open at that moment commits nothing.
    const failure = closedGate();
    const failing = vi
      .spyOn(prototype, "datasync")
      .mockImplementationOnce(() => failure.opened.then(() => Promise.reject(new Error("EIO: i/o error"))));
    const held = closedGate();
    try {
      expect(await ping(db)).toBe(true);
      expect(flushing.broken()).toBeUndefined();
      const unflushed = started(db.account.create({ data: account("acct_unflushed") }));
      await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
      const begun = closedGate();
      const open = started(
        db.$transaction(async (tx) => {
          await tx.account.create({ data: account("acct_open_at_failure") });
          begun.open();
          await held.opened;
        }),
      );
      await begun.opened;
      failure.open();
      await expect(unflushed).rejects.toThrow(/EIO/);
      held.open();
      await expect(open).rejects.toThrow(/EIO/);
      await expect(db.account.create({ data: account("acct_after_failure") })).rejects.toThrow(/EIO/);
      await expect(db.$transaction(async (tx) => tx.account.count())).rejects.toThrow(/EIO/);
      await expect(db.account.count()).rejects.toThrow(/EIO/);
      expect(await ping(db)).toBe(false);
      expect(flushing.broken()?.message).toMatch(/EIO/);
      expect(failing).toHaveBeenCalledTimes(1);
      const file = new Database(join(real, "cms.db"), { readonly: true });
      const ids = file
        .prepare(
          "SELECT id FROM Account WHERE id IN ('acct_unflushed', 'acct_open_at_failure', 'acct_after_failure')",
        )
        .pluck()
        .all();
      file.close();
      // The first write committed before its flush failed; the others never did.
      expect(ids).toEqual(["acct_unflushed"]);
    } finally {
      failure.open();
      held.open();
      failing.mockRestore();
      await flushing.close();
      for (const folder of [linked, real]) rmSync(folder, { recursive: true, force: true });
    }
  });

  it("with SQLITE_SYNCHRONOUS=normal, commits with NORMAL and flushes nothing itself", async () => {
    const fast = await openDatabase({ dataDir: dir, databaseUrl: undefined, sqliteSynchronous: "normal" });
    const unflushed = vi.spyOn(prototype, "datasync");
    try {
      expect(await level(fast.db)).toBe(1);
      await fast.db.account.create({ data: account("acct_normal") });
      expect(unflushed).not.toHaveBeenCalled();
    } finally {
      unflushed.mockRestore();
      await fast.close();
    }
  });
});

/** The prototype of Node's FileHandle (the class is not exported), whose datasync flushes the WAL. */
async function fileHandlePrototype(): Promise<FileHandle> {
  const handle = await open(process.execPath, "r");
  await handle.close();
  return Object.getPrototypeOf(handle);
}

const prototype = await fileHandlePrototype();
const datasync = prototype.datasync;

/** The connection's `synchronous` level: SQLite's numbers, 1 NORMAL and 2 FULL. */
const level = async (db: CmsDatabase["db"]) =>
  Number((await db.$queryRawUnsafe<{ synchronous: number }[]>("PRAGMA synchronous"))[0]?.synchronous);

/** Sends a Prisma call now (they wait for a `then`), its rejection to be asserted later. */
function started<T>(call: PromiseLike<T>): Promise<T> {
  const sent = Promise.resolve(call);
  sent.catch(() => {});
  return sent;
}

function closedGate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}

/** Which of `promises` have settled, as they do. */
function watchSettled(promises: Record<string, Promise<unknown>>): Record<string, boolean> {
  const settled: Record<string, boolean> = {};
  for (const [name, promise] of Object.entries(promises)) {
    settled[name] = false;
    const done = () => {
      settled[name] = true;
    };
    promise.then(done, done);
  }
  return settled;
}
