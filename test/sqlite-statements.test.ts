// The SQLite adapter's kept statements (`reuseStatements`, src/db/sqlite-adapter.ts): one test for each
// way the adapter runs a statement through the stand-in for `prepare`, through the real Prisma client on a
// real file. The embedded database only, under either setting of TEST_DATABASE.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database as CmsDatabase, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { MAX_TEXTS } from "../src/db/sqlite-adapter.ts";
import { LIMITS_PER_TEXT } from "../src/db/sqlite-statements.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-sqlite-statements-"));
let database: CmsDatabase;

const account = (id: string) => ({ id, name: id, domain: `${id}.test` });
const nameOf = "SELECT name FROM Account WHERE id = ?";

describe("SQLite kept statements", () => {
  beforeAll(async () => {
    database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
    await migrate(database);
    await database.db.account.createMany({ data: [account("acct_a"), account("acct_b")] });
  });

  afterAll(async () => {
    await database?.db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a read binds each call's own arguments to the one kept statement (bind, columns, raw().all())", async () => {
    const { db } = database;
    const [a, b, none] = await Promise.all(
      ["acct_a", "acct_b", "acct_none"].map((id) => db.$queryRawUnsafe(nameOf, id)),
    );
    expect([a, b, none]).toEqual([[{ name: "acct_a" }], [{ name: "acct_b" }], []]);
    // The same text again, and a model read whose columns are typed: the kept columns still fit the rows.
    expect(await db.$queryRawUnsafe(nameOf, "acct_b")).toEqual([{ name: "acct_b" }]);
    const found = await db.account.findUnique({ where: { id: "acct_a" } });
    expect(found).toMatchObject({ id: "acct_a", domain: "acct_a.test" });
    expect(found?.createdAt).toBeInstanceOf(Date);
  });

  it("a write sent as a query runs once (not a reader: run()), and one that returns rows answers them", async () => {
    const { db } = database;
    expect(await db.$queryRawUnsafe("UPDATE Account SET name = ? WHERE id = ?", "renamed", "acct_a")).toEqual(
      [],
    );
    expect(await db.$queryRawUnsafe(nameOf, "acct_a")).toEqual([{ name: "renamed" }]);
    const returned = await db.$queryRawUnsafe(
      "UPDATE Account SET name = name || ? WHERE id = ? RETURNING name",
      "!",
      "acct_a",
    );
    expect(returned).toEqual([{ name: "renamed!" }]);
    expect(await db.$queryRawUnsafe(nameOf, "acct_a")).toEqual([{ name: "renamed!" }]);
  });

  it("a write sent as an execute answers the rows it changed (run())", async () => {
    const { db } = database;
    const changed = await db.$executeRawUnsafe(
      "UPDATE Account SET name = ? WHERE id IN (?, ?)",
      "both",
      "acct_a",
      "acct_b",
    );
    expect(changed).toBe(2);
    expect(await db.account.count({ where: { name: "both" } })).toBe(2);
  });

  it("a statement that failed runs again with other arguments", async () => {
    const { db } = database;
    const insert = "INSERT INTO Account (id, name, domain, createdAt, updatedAt) VALUES (?, ?, ?, 0, 0)";
    await expect(db.$executeRawUnsafe(insert, "acct_a", "dup", "dup.test")).rejects.toMatchObject({
      code: "P2010",
    });
    expect(await db.$executeRawUnsafe(insert, "acct_c", "c", "c.test")).toBe(1);
    expect(await db.$queryRawUnsafe(nameOf, "acct_c")).toEqual([{ name: "c" }]);
  });

  it("a bound LIMIT is written into the kept text: each call still gets its own limit and offset", async () => {
    const { db } = database;
    const ids = async (take: number, skip = 0) =>
      (await db.account.findMany({ orderBy: { id: "asc" }, take, skip, select: { id: true } })).map(
        (row) => row.id,
      );
    expect(await ids(1)).toEqual(["acct_a"]);
    expect(await ids(2)).toEqual(["acct_a", "acct_b"]);
    expect(await ids(1, 1)).toEqual(["acct_b"]);
    expect(await ids(1)).toEqual(["acct_a"]);
    // More limits than are written into one text: the others stay bound, and each still holds.
    await db.account.create({ data: account("acct_d") });
    for (let take = 1; take <= LIMITS_PER_TEXT + 2; take++)
      expect(await ids(take, 1)).toEqual(["acct_b", "acct_c", "acct_d"].slice(0, take));
    const page = "SELECT id FROM Account ORDER BY id LIMIT ? OFFSET ?";
    expect(await db.$queryRawUnsafe(page, 1, 1)).toEqual([{ id: "acct_b" }]);
    expect(await db.$queryRawUnsafe(page, 2, 0)).toEqual([{ id: "acct_a" }, { id: "acct_b" }]);
    // Not a whole number: left bound, as SQLite reads it.
    expect(await db.$queryRawUnsafe("SELECT id FROM Account ORDER BY id LIMIT ?", "1")).toEqual([
      { id: "acct_a" },
    ]);
  });

  it(`more than ${MAX_TEXTS} texts: the least used are let go and prepared again when asked`, async () => {
    const { db } = database;
    for (let index = 0; index <= MAX_TEXTS; index++) {
      expect(await db.$queryRawUnsafe(`SELECT ? + ${index} AS n`, 1)).toEqual([{ n: index + 1 }]);
    }
    expect(await db.$queryRawUnsafe("SELECT ? + 0 AS n", 41)).toEqual([{ n: 41 }]);
    expect(await db.$queryRawUnsafe(nameOf, "acct_c")).toEqual([{ name: "c" }]);
  });
});
