// The PostgreSQL generation of the lookup tables (src/db/generation.ts, and the triggers of the
// lookup_tables_version migration) through the real client on a fresh database: it must change with
// every committed write to accounts, tokens, collections or blueprints, here or through another
// connection, and with nothing else. The suite on PostgreSQL runs it (TEST_DATABASE=postgres).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { postgresStatement, postgresUrl, usesPostgres } from "./helpers/server.ts";

const name = `cms_generation_${randomBytes(6).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "cms-generation-pg-"));
let url: string;
let database: Database;

const lookup = () => database.generation.of(["ApiToken"], database.generation);

describe.runIf(usesPostgres)("the PostgreSQL generation of the lookup tables", () => {
  beforeAll(async () => {
    await postgresStatement(`CREATE DATABASE ${name}`);
    const parsed = new URL(postgresUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    database = await openDatabase({ dataDir: dir, databaseUrl: url });
    await migrate(database);
    await database.db.account.create({ data: { id: "acct_a", name: "A", domain: "a.test" } });
  });

  afterAll(async () => {
    await database?.db.$disconnect();
    await postgresStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("is told for the lookup tables only", async () => {
    expect(await lookup()).toMatch(/^lookup\.\d+$/);
    expect(await database.generation.of(["ApiToken", "Entry"], database.generation)).toBeUndefined();
  });

  it("changes with a write to a lookup table, not with a write to another table", async () => {
    const [before, whole] = [await lookup(), await database.generation()];
    await database.db.template.create({
      data: { id: "tmpl_1", accountId: "acct_a", handle: "page", title: "Page", html: "<p></p>" },
    });
    expect(await lookup()).toBe(before);
    expect(await database.generation()).not.toBe(whole);
    await database.db.apiToken.create({ data: { id: "tkn_1", accountId: "acct_a", tokenHash: "h1" } });
    expect(await lookup()).not.toBe(before);
  });

  it("does not change with a rolled-back write", async () => {
    const before = await lookup();
    await expect(
      database.db.$transaction(async (tx) => {
        await tx.apiToken.update({ where: { id: "tkn_1" }, data: { revokedAt: new Date() } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await lookup()).toBe(before);
  });

  it("never makes one writer of a lookup table wait for another's transaction", async () => {
    const writers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query("SET statement_timeout = 2000");
        return client;
      }),
    );
    try {
      const before = await lookup();
      // More open transactions than version rows: the last two must add rows rather than wait.
      for (const [i, writer] of writers.entries()) {
        await writer.query("BEGIN");
        await writer.query(
          `INSERT INTO "ApiToken" ("id", "accountId", "tokenHash") VALUES ('tkn_w${i}', 'acct_a', 'w${i}')`,
        );
      }
      expect(await lookup()).toBe(before);
      for (const writer of writers) await writer.query("COMMIT");
      const after = Number((await lookup())?.slice("lookup.".length));
      expect(after).toBe(Number(before?.slice("lookup.".length)) + writers.length);
    } finally {
      await Promise.all(writers.map((writer) => writer.end()));
    }
  });

  it("changes with another connection's commit to a lookup table, and with a cascade", async () => {
    let before = await lookup();
    await postgresStatement(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "id" = 'tkn_1'`, url);
    expect(await lookup()).not.toBe(before);
    before = await lookup();
    await database.db.account.delete({ where: { id: "acct_a" } });
    expect(await lookup()).not.toBe(before);
    expect(await database.db.apiToken.count()).toBe(0);
  });
});
