// A fresh, migrated database of this run's kind (TEST_DATABASE) opened in the test's own process, for tests
// of the data layer on the real client; `drop` closes and removes it.
import { join } from "node:path";
import SqliteFile from "better-sqlite3";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { freshDatabase, postgresStatement, type TestServer, usesPostgres } from "./server.ts";

export async function openFreshDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const fresh = await freshDatabase();
  const database = await openDatabase({
    dataDir: String(fresh.env.CMS_DATA_DIR),
    databaseUrl: fresh.env.DATABASE_URL,
  });
  await migrate(database);
  return {
    database,
    drop: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * Renames a table of the running server's database under it (the SQLite file, or its PostgreSQL
 * database): its next statement on that table fails, as a database fault would, for tests of how an
 * error nobody expected is answered and logged.
 */
export async function renameTable(server: TestServer, from: string, to: string): Promise<void> {
  const sql = `ALTER TABLE "${from}" RENAME TO "${to}"`;
  if (usesPostgres) return postgresStatement(sql, server.env.DATABASE_URL);
  const db = new SqliteFile(join(String(server.env.CMS_DATA_DIR), "cms.db"), { timeout: 5_000 });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
