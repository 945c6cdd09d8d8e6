// Checkpoints of the embedded database run beside the server's thread (src/db/wal-checkpoint.ts): what is
// written reaches the database file itself within moments, long before SQLite's own checkpoint would copy
// it, and when the worker is gone the connection checkpoints as SQLite does by default. The embedded
// database only, under either setting of TEST_DATABASE.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { BACKSTOP_PAGES, checkpointBeside } from "../src/db/wal-checkpoint.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-sqlite-checkpoints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it answers `wanted`, for at most 5 s; answers the last value read. */
async function eventually<T>(read: () => T, wanted: T): Promise<T> {
  let value = read();
  for (let waited = 0; value !== wanted && waited < 5_000; waited += 50) {
    await pause(50);
    value = read();
  }
  return value;
}

describe("SQLite checkpoints", () => {
  it("copy what is written into the database file within moments, from another thread", async () => {
    const database = await openDatabase({ dataDir: dir, databaseUrl: undefined }, { serving: true });
    try {
      await migrate(database);
      for (let index = 0; index < 20; index++) {
        await database.db.account.create({
          data: { id: `acct_${index}`, name: `Account ${index}`, domain: `a${index}.test` },
        });
      }
      // The database file alone, without its WAL: it holds only what a checkpoint copied into it. Twenty
      // small writes are far from the 1,000 pages at which SQLite would checkpoint inside a COMMIT.
      const accountsInFile = () => {
        const copy = join(dir, "copy.db");
        copyFileSync(join(dir, "cms.db"), copy);
        const file = new Database(copy, { readonly: true });
        try {
          return file.prepare('SELECT count(*) FROM "Account"').pluck().get();
        } catch (error) {
          // Nothing was copied yet, not even the tables.
          return (error as Error).message;
        } finally {
          file.close();
          rmSync(copy);
        }
      };
      expect(await eventually(accountsInFile, 20)).toBe(20);
    } finally {
      await database.db.$disconnect();
    }
  });

  it("leave the connection to checkpoint itself, as SQLite does by default, once the worker is gone", async () => {
    const client = new Database(join(dir, "alone.db"));
    try {
      // The worker cannot open a file that is not there, and ends.
      checkpointBeside(client, join(dir, "missing.db"));
      expect(client.pragma("wal_autocheckpoint", { simple: true })).toBe(BACKSTOP_PAGES);
      const autocheckpoint = () => client.pragma("wal_autocheckpoint", { simple: true });
      expect(await eventually(autocheckpoint, 1_000)).toBe(1_000);
    } finally {
      client.close();
    }
  });
});
