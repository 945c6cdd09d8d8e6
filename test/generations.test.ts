// Freshness by generations (src/schema/generations.ts, migration account_generations): the database's
// triggers bump an account's counters in the transaction of every write of its rows, whichever code path
// made it, so a write no mutation list knows of still ends the kept answers it changes; an entry coming
// due advances the counter once, whoever sees it first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { readIdentity } from "../src/schema/generations.ts";
import { api } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { openFreshDatabase } from "./helpers/database.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

/** The tables whose rows carry an account: every one must bump a counter (MailMessage is never read). */
async function accountTables(database: Database): Promise<string[]> {
  const sql = usesPostgres
    ? `SELECT table_name::text AS name FROM information_schema.columns WHERE column_name = 'accountId'
        AND table_schema = current_schema()`
    : `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table'
        AND c.name = 'accountId'`;
  const rows = await database.db.$queryRawUnsafe<{ name: string }[]>(sql);
  return rows.map((row) => row.name).filter((name) => !["AccountGeneration", "MailMessage"].includes(name));
}

async function triggeredTables(database: Database): Promise<string[]> {
  const sql = usesPostgres
    ? `SELECT DISTINCT c.relname::text AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'cms_bump'`
    : `SELECT DISTINCT tbl_name AS name FROM sqlite_master WHERE type = 'trigger'
        AND (sql LIKE '%SET "content" = "content" + 1%' OR sql LIKE '%SET "structure" = "structure" + 1%')`;
  const rows = await database.db.$queryRawUnsafe<{ name: string }[]>(sql);
  return rows.map((row) => row.name);
}

describe("the generation triggers", () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openFreshDatabase());
  });
  afterAll(() => drop?.());

  const generation = async (id: string) =>
    (await readIdentity(database.db, undefined, `${id}.test`)).generations.get(id);

  it("cover every table whose rows belong to an account", async () => {
    const tables = await accountTables(database);
    expect(tables).toContain("Entry");
    expect(tables.length).toBeGreaterThan(12);
    expect((await triggeredTables(database)).sort()).toEqual(expect.arrayContaining(tables.sort()));
  });

  it("bump content or structure once per committed write, and nothing for a rolled-back one", async () => {
    const { db } = database;
    await db.account.create({ data: { id: "acct_g", name: "G", domain: "acct_g.test" } });
    expect(await generation("acct_g")).toEqual({ content: 0n, structure: 0n });
    await db.collection.create({
      data: { id: "col_g", accountId: "acct_g", handle: "notes", name: "Notes", routing: "notes/:handle" },
    });
    const afterCollection = await generation("acct_g");
    expect(afterCollection?.structure).toBeGreaterThan(0n);
    expect(afterCollection?.content).toBe(0n);
    await db.asset.create({
      data: {
        id: "ast_g",
        accountId: "acct_g",
        filename: "a.txt",
        contentType: "text/plain",
        fileSize: 1,
      },
    });
    const afterAsset = await generation("acct_g");
    expect(afterAsset?.content).toBeGreaterThan(0n);
    expect(afterAsset?.structure).toBe(afterCollection?.structure);
    await expect(
      db.$transaction(async (tx) => {
        await tx.asset.delete({ where: { id: "ast_g" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await generation("acct_g")).toEqual(afterAsset);
  });

  it("advance an account whose scheduled entry came due once, however many readers see it", async () => {
    const { db } = database;
    await db.account.create({ data: { id: "acct_s", name: "S", domain: "acct_s.test" } });
    const due = new Date(Date.now() - 1_000);
    await db.accountGeneration.update({ where: { accountId: "acct_s" }, data: { nextPublishAt: due } });
    const before = await db.accountGeneration.findUniqueOrThrow({ where: { accountId: "acct_s" } });
    const readers = await Promise.all(
      Array.from({ length: 8 }, () => readIdentity(db, undefined, "acct_s.test")),
    );
    const after = await db.accountGeneration.findUniqueOrThrow({ where: { accountId: "acct_s" } });
    expect(after.content).toBe(before.content + 1n);
    expect(after.nextPublishAt).toBeNull();
    for (const reader of readers) expect(reader.generations.get("acct_s")?.content).toBe(after.content);
  });
});

describe("a write made outside every mutation", () => {
  let server: TestServer;
  let account: TestAccount;
  beforeAll(async () => {
    server = await startServer();
    account = await createAccount(server, "Direct");
    await seedNotesSite(api(server, account));
  });
  afterAll(() => server?.stop());

  it("ends the kept answers it changes, at the next read", async () => {
    const client = api(server, account);
    await client.get("/collections/notes/entries/hello");
    const kept = await client.get("/collections/notes/entries/hello");
    expect(kept.headers.get("x-cache")).toBe("hit");
    // Another process writes the row directly: no mutation of the schema, no list of names.
    const direct = await openDatabase({
      dataDir: String(server.env.CMS_DATA_DIR),
      databaseUrl: server.env.DATABASE_URL,
    });
    try {
      await direct.db.entry.updateMany({
        where: { accountId: account.account_id, handle: "hello" },
        data: { title: "Written directly" },
      });
    } finally {
      await direct.close();
    }
    const fresh = await client.get("/collections/notes/entries/hello");
    expect(fresh.headers.get("x-cache")).toBe("miss");
    expect(fresh.body.title).toBe("Written directly");
  });
});
