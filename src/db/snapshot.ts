// A consistent copy of the whole database, taken while the server keeps serving and writing: on SQLite
// VACUUM INTO (one read transaction: in WAL mode writers go on meanwhile, and the copy is the database as
// of its start, compacted), on PostgreSQL pg_dump (one snapshot). `restoreSnapshot` puts such a copy into
// an empty database.
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Config } from "../config.ts";
import { SetupError } from "../setup-errors.ts";
import { type Database, isPostgresUrl, openDatabase, sqliteFile } from "./client.ts";
import { pgDump, pgRestore } from "./pg-tools.ts";

/** Writes the copy to `file` (absent before); says which kind it is. */
export async function takeSnapshot(database: Database, config: Pick<Config, "databaseUrl">, file: string) {
  if (isPostgresUrl(config.databaseUrl)) {
    await pgDump(config.databaseUrl, file);
    return "postgresql" as const;
  }
  await database.db.$executeRawUnsafe("VACUUM INTO ?", file);
  return "sqlite" as const;
}

/** Why the database is not empty (a restore would mix two instances), or undefined when it is. */
export async function notEmpty(config: Pick<Config, "dataDir" | "databaseUrl">): Promise<string | undefined> {
  if (!isPostgresUrl(config.databaseUrl)) {
    const file = sqliteFile(config);
    return existsSync(file) ? `the database file ${file} exists` : undefined;
  }
  const database = await openDatabase(config);
  try {
    const [row] = await database.db.$queryRawUnsafe<{ tables: number }[]>(
      "SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    return row && row.tables > 0 ? `the PostgreSQL database has ${row.tables} tables` : undefined;
  } finally {
    await database.close();
  }
}

/** Puts the copy in `file` into the (empty) database the settings name. */
export async function restoreSnapshot(
  config: Pick<Config, "dataDir" | "databaseUrl">,
  kind: string,
  file: string,
): Promise<void> {
  const target = isPostgresUrl(config.databaseUrl) ? "postgresql" : "sqlite";
  if (kind !== target)
    throw new SetupError(
      `this backup is of ${kind === "sqlite" ? "an SQLite" : "a PostgreSQL"} database, but DATABASE_URL names ${target === "sqlite" ? "the embedded one" : "PostgreSQL"}: restore it into the same kind (cms export and import move a site between them)`,
    );
  if (isPostgresUrl(config.databaseUrl)) return pgRestore(config.databaseUrl, file);
  const into = sqliteFile(config);
  try {
    await rename(file, into);
  } catch (error) {
    await rm(into, { force: true });
    throw error;
  }
}
