// Migrations run as whole scripts (src/db/migrate.ts): a trigger or function body written over many
// lines, `;`s inside, works as written; a migration that fails leaves nothing of itself and is not
// recorded. On the database under test (TEST_DATABASE), on a fresh database with migrations of its own.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { postgresStatement, postgresUrl, usesPostgres } from "./helpers/server.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-migrate-"));
const migrations = join(dir, "migrations");
const pgName = `cms_migrate_${randomBytes(6).toString("hex")}`;
let database: Database;

function migration(name: string, sql: string): void {
  mkdirSync(join(migrations, name), { recursive: true });
  writeFileSync(join(migrations, name, "migration.sql"), sql);
}

// A note's insert writes two log rows, through a body of several statements.
const notes = {
  sqlite: `-- Notes and their log
CREATE TABLE "Note" ("id" TEXT NOT NULL PRIMARY KEY, "text" TEXT NOT NULL);
CREATE TABLE "NoteLog" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "line" TEXT NOT NULL);

CREATE TRIGGER "Note_log" AFTER INSERT ON "Note"
BEGIN
  INSERT INTO "NoteLog" ("line") VALUES ('added; ' || NEW."id");
  INSERT INTO "NoteLog" ("line") VALUES ('text; ' || NEW."text");
END;
`,
  postgresql: `-- Notes and their log
CREATE TABLE "Note" ("id" TEXT NOT NULL PRIMARY KEY, "text" TEXT NOT NULL);
CREATE TABLE "NoteLog" ("id" SERIAL PRIMARY KEY, "line" TEXT NOT NULL);

CREATE FUNCTION "note_log"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "NoteLog" ("line") VALUES ('added; ' || NEW."id");
  INSERT INTO "NoteLog" ("line") VALUES ('text; ' || NEW."text");
  RETURN NULL;
END
$$;

CREATE TRIGGER "Note_log" AFTER INSERT ON "Note"
  FOR EACH ROW EXECUTE FUNCTION "note_log"();
`,
};

const applied = async () =>
  (
    await database.db.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name"`,
    )
  ).map((row) => row.migration_name);

describe("migrations run as whole scripts", () => {
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (usesPostgres) {
      await postgresStatement(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(postgresUrl);
      parsed.pathname = `/${pgName}`;
      databaseUrl = parsed.toString();
    }
    database = await openDatabase({ dataDir: dir, databaseUrl });
  });

  afterAll(async () => {
    await database?.db.$disconnect();
    if (usesPostgres) await postgresStatement(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a body of several statements over several lines works as written", async () => {
    migration("001_notes", notes[database.provider]);
    expect(await migrate(database, migrations)).toEqual(["001_notes"]);
    await database.db.$executeRawUnsafe(`INSERT INTO "Note" ("id", "text") VALUES ('n1', 'hello')`);
    const lines = await database.db.$queryRawUnsafe<{ line: string }[]>(
      `SELECT "line" FROM "NoteLog" ORDER BY "id"`,
    );
    expect(lines.map((row) => row.line)).toEqual(["added; n1", "text; hello"]);
    expect(await applied()).toEqual(["001_notes"]);
    expect(await migrate(database, migrations)).toEqual([]);
  });

  it("a migration that fails leaves nothing of itself, is not recorded, and applies once mended", async () => {
    const good = `CREATE TABLE "Tag" ("id" TEXT NOT NULL PRIMARY KEY);\nINSERT INTO "Tag" ("id") VALUES ('a');\n`;
    migration("002_tags", `${good}INSERT INTO "NoSuchTable" ("id") VALUES ('b');\n`);
    await expect(migrate(database, migrations)).rejects.toThrow(
      /^migration 002_tags failed, nothing of it applied: .*NoSuchTable/,
    );
    expect(await applied()).toEqual(["001_notes"]);
    const tables = await database.db.$queryRawUnsafe<{ name: string }[]>(
      database.provider === "sqlite"
        ? `SELECT "name" FROM sqlite_master WHERE "name" = 'Tag'`
        : `SELECT "table_name"::text AS "name" FROM information_schema.tables WHERE "table_name" = 'Tag'`,
    );
    expect(tables).toEqual([]);

    migration("002_tags", good);
    expect(await migrate(database, migrations)).toEqual(["002_tags"]);
    expect(await applied()).toEqual(["001_notes", "002_tags"]);
  });

  // PostgreSQL only: several processes on one SQLite file wait on its one writer and time out
  // ("database is locked"); several server processes mean PostgreSQL.
  it.skipIf(!usesPostgres)("processes starting together apply each migration once", async () => {
    migration("003_labels", `CREATE TABLE "Label" ("id" TEXT NOT NULL PRIMARY KEY);\n`);
    migration("004_more", `INSERT INTO "Label" ("id") VALUES ('one');\n`);
    const others = await Promise.all(
      [1, 2, 3].map(() =>
        openDatabase({ dataDir: dir, databaseUrl: database.provider === "postgresql" ? pgUrl() : undefined }),
      ),
    );
    try {
      const results = await Promise.all([database, ...others].map((each) => migrate(each, migrations)));
      expect(results.flat().sort()).toEqual(["003_labels", "004_more"]);
      expect(await applied()).toEqual(["001_notes", "002_tags", "003_labels", "004_more"]);
      const labels = await database.db.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "Label"`);
      expect(labels).toEqual([{ id: "one" }]);
    } finally {
      for (const other of others) await other.db.$disconnect();
    }
  });
});

function pgUrl(): string {
  const parsed = new URL(postgresUrl);
  parsed.pathname = `/${pgName}`;
  return parsed.toString();
}
