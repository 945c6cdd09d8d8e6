// Which tables a write may change (src/db/table-writes.ts), on a real SQLite database with foreign keys:
// what is kept under a table's generation must end with every write that can reach that table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { TableWrites } from "../src/db/table-writes.ts";

let db: Database.Database;
let writes: TableWrites;

beforeEach(() => {
  db = new Database(":memory:");
  db.exec(`
    CREATE TABLE "Account" ("id" TEXT PRIMARY KEY);
    CREATE TABLE "ApiToken" ("id" TEXT PRIMARY KEY, "accountId" TEXT REFERENCES "Account" ("id") ON DELETE CASCADE);
    CREATE TABLE "Entry" ("id" TEXT PRIMARY KEY, "accountId" TEXT REFERENCES "Account" ("id") ON DELETE CASCADE);
    CREATE TABLE "EntryReference" ("fromId" TEXT REFERENCES "Entry" ("id") ON DELETE CASCADE);
  `);
  writes = new TableWrites(db);
});

const changed = (sql: string) => [...(writes.changedBy(sql) ?? ["(every table)"])].sort();

describe("the tables a statement changes", () => {
  it("is its own table for an insert, however Prisma or a person quotes it", () => {
    expect(changed("INSERT INTO `main`.`Entry` (`id`) VALUES (?) RETURNING `id`")).toEqual(["Entry"]);
    expect(changed('insert into "Entry" ("id") values (?)')).toEqual(["Entry"]);
    expect(changed("INSERT INTO Entry (id) VALUES (?)")).toEqual(["Entry"]);
  });

  it("reaches every table whose foreign keys cascade from an updated or deleted one", () => {
    expect(changed("UPDATE `main`.`Entry` SET `title` = ? WHERE `id` = ?")).toEqual([
      "Entry",
      "EntryReference",
    ]);
    expect(changed('DELETE FROM "Account" WHERE "id" = ?')).toEqual([
      "Account",
      "ApiToken",
      "Entry",
      "EntryReference",
    ]);
    expect(changed("INSERT OR REPLACE INTO `Entry` (`id`) VALUES (?)")).toEqual(["Entry", "EntryReference"]);
    const upsert = "INSERT INTO `Entry` (`id`) VALUES (?) ON CONFLICT (`id`) DO UPDATE SET `id` = ?";
    expect(changed(upsert)).toEqual(["Entry", "EntryReference"]);
  });

  it("is none for beginning and committing, every table for a rollback and for what it cannot read", () => {
    for (const sql of ["BEGIN", "COMMIT", "SAVEPOINT a", "RELEASE a"]) expect(changed(sql)).toEqual([]);
    for (const sql of [
      "ROLLBACK",
      "ANALYZE",
      "WITH x AS (SELECT 1) DELETE FROM Entry",
      "/* a comment */ DELETE FROM Entry",
      'CREATE TABLE "T" ("id" TEXT)',
    ]) {
      expect(changed(sql)).toEqual(["(every table)"]);
    }
  });
});

describe("a table's generation", () => {
  it("changes with writes that reach the table, and with no other", () => {
    const token = () => writes.generation(["ApiToken"]);
    const before = token();
    writes.count(writes.changedBy("INSERT INTO `Entry` (`id`) VALUES (?)"));
    writes.count(writes.changedBy("UPDATE `Entry` SET `id` = ?"));
    expect(token()).toBe(before);
    writes.count(writes.changedBy("DELETE FROM `Account` WHERE `id` = ?"));
    expect(token()).not.toBe(before);
    const later = token();
    writes.count(writes.changedBy("VACUUM"));
    expect(token()).not.toBe(later);
  });

  it("reads the schema's foreign keys again after a migration, this connection's or another's", () => {
    const file = join(mkdtempSync(join(tmpdir(), "cms-table-writes-")), "test.db");
    const server = new Database(file);
    server.exec('CREATE TABLE "Entry" ("id" TEXT PRIMARY KEY)');
    const onFile = new TableWrites(server);
    const deleted = () => [...(onFile.changedBy("DELETE FROM `Entry`") ?? [])].sort();
    expect(deleted()).toEqual(["Entry"]);
    server.exec('CREATE TABLE "Comment" ("entryId" TEXT REFERENCES "Entry" ("id") ON DELETE CASCADE)');
    expect(deleted()).toEqual(["Comment", "Entry"]);
    const other = new Database(file);
    other.exec('CREATE TABLE "Like" ("entryId" TEXT REFERENCES "Entry" ("id") ON DELETE SET NULL)');
    other.close();
    expect(deleted()).toEqual(["Comment", "Entry", "Like"]);
    server.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });
});
