// The SQLite data generation (src/db/generation.ts) through the real driver adapter Prisma uses: the
// generation of some tables must change with every statement and transaction that can change them,
// here or in another process, and with nothing else.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Generation, sqliteGeneration } from "../src/db/generation.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-generation-"));
const file = join(dir, "test.db");
let adapter: Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
let generation: Generation;

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });
const token = () => generation.of(["ApiToken"], generation);
const entry = () => generation.of(["Entry"], generation);

beforeAll(async () => {
  adapter = await new PrismaBetterSQLite3({ url: file }).connect();
  await adapter.executeScript(`
    PRAGMA journal_mode = WAL;
    CREATE TABLE "Account" ("id" TEXT PRIMARY KEY);
    CREATE TABLE "ApiToken" ("id" TEXT PRIMARY KEY, "accountId" TEXT REFERENCES "Account" ("id") ON DELETE CASCADE);
    CREATE TABLE "Entry" ("id" TEXT PRIMARY KEY, "accountId" TEXT REFERENCES "Account" ("id") ON DELETE CASCADE);
    INSERT INTO "Account" VALUES ('a'), ('b');
  `);
  const client = (adapter as unknown as { client: Database.Database }).client;
  generation = sqliteGeneration(adapter, client);
});

afterAll(async () => {
  await adapter.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("the SQLite generation of some tables", () => {
  it("changes with a write to the table, not with a write to another", async () => {
    const [tokens, entries] = [await token(), await entry()];
    await adapter.executeRaw(statement(`INSERT INTO "Entry" VALUES ('e1', 'a')`));
    expect(await token()).toBe(tokens);
    expect(await entry()).not.toBe(entries);
    await adapter.queryRaw(statement(`INSERT INTO "ApiToken" VALUES ('t1', 'a') RETURNING "id"`));
    expect(await token()).not.toBe(tokens);
  });

  it("changes with a cascade from a deleted row", async () => {
    const tokens = await token();
    await adapter.executeRaw(statement(`DELETE FROM "Account" WHERE "id" = 'a'`));
    expect(await token()).not.toBe(tokens);
  });

  it("changes with a transaction's writes, when it commits and when it rolls back", async () => {
    // As Prisma's client ends one: the statement, then the adapter's own end (which frees the connection).
    for (const end of ["commit", "rollback"] as const) {
      const tx = await adapter.startTransaction();
      await tx.executeRaw(statement(`INSERT INTO "Entry" VALUES ('e-${end}', 'b')`));
      const written = await entry();
      await tx.executeRaw(statement(end.toUpperCase()));
      await tx[end]();
      expect(await entry()).not.toBe(written);
    }
  });

  it("changes with another connection's commit, whatever it wrote", async () => {
    const tokens = await token();
    const other = new Database(file);
    other.prepare(`INSERT INTO "Entry" VALUES ('e-other', 'b')`).run();
    other.close();
    expect(await token()).not.toBe(tokens);
  });
});
