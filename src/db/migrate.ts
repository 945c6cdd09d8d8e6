// Applies the committed migration.sql files of the active provider, each once, in name order, and records
// them in Prisma's own _prisma_migrations table (so `prisma migrate status` agrees). Going through the
// Prisma client keeps start-up fast and offline. Each file runs as one script (the drivers take many
// statements at once), so a function or trigger body is written as it reads, `;`s and all.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../project-root.ts";
import type { Database } from "./client.ts";
import { recordEntryRevisions } from "./entry-revisions.ts";

const migrationsRoot = join(projectRoot, "prisma");

const createTable = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
};

/**
 * Returns the names of the migrations it applied. The schema being then current, a process that records
 * revisions gets its connection's recording triggers here (SQLite's are the connection's own).
 * `dir`: another folder of migrations (the tests').
 */
export async function migrate(
  database: Database,
  dir = join(migrationsRoot, database.provider, "migrations"),
): Promise<string[]> {
  const { db, provider } = database;
  await db.$transaction(async (tx) => {
    await takeTurn(tx, provider);
    await tx.$executeRawUnsafe(createTable[provider]);
  });
  const rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`,
  );
  const done = new Set(rows.map((row) => row.migration_name));
  const pending = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !done.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  const applied = new Set<string>();
  for (const name of pending) {
    const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
    const checksum = createHash("sha256").update(sql).digest("hex");
    await db
      .$transaction(
        async (tx) => {
          await takeTurn(tx, provider);
          // Another process may have applied it while this one waited for its turn.
          if (await isApplied(tx, name)) return;
          await database.executeScript(tx, sql);
          await tx.$executeRaw`INSERT INTO "_prisma_migrations"
            ("id", "checksum", "migration_name", "finished_at", "applied_steps_count")
            VALUES (${randomUUID()}, ${checksum}, ${name}, CURRENT_TIMESTAMP, 1)`;
          applied.add(name);
        },
        { maxWait: TURN_WAIT_MS, timeout: TURN_WAIT_MS },
      )
      .catch((error) => {
        throw new Error(`migration ${name} failed, nothing of it applied: ${databaseMessage(error)}`, {
          cause: error,
        });
      });
  }
  if (database.recordsRevisions) await recordEntryRevisions(database);
  return pending.filter((name) => applied.has(name));
}

/** A migration may take a while; so may the wait for another process's. */
const TURN_WAIT_MS = 10 * 60_000;
/** Any constant: the key of the PostgreSQL advisory lock migrations are applied under. */
const MIGRATION_LOCK = 2_161_021;

type Tx = Parameters<Parameters<Database["db"]["$transaction"]>[0]>[0];

/**
 * Server processes started together on one PostgreSQL database take turns (an advisory lock held to the
 * end of the transaction): each migration is applied by one of them. SQLite's one writer is turn enough.
 */
async function takeTurn(tx: Tx, provider: Database["provider"]): Promise<void> {
  if (provider === "postgresql")
    await tx.$queryRawUnsafe(`SELECT 1 FROM pg_advisory_xact_lock(${MIGRATION_LOCK})`);
}

async function isApplied(tx: Tx, name: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "_prisma_migrations"
    WHERE "migration_name" = ${name} AND "finished_at" IS NOT NULL`;
  return rows.length > 0;
}

/** The database's own words: the driver adapter's error (thrown as it is, or inside Prisma's) keeps them. */
function databaseMessage(error: unknown): string {
  type AdapterError = { cause?: { originalMessage?: string; kind?: string } };
  const adapterError =
    (error as { meta?: { driverAdapterError?: AdapterError } }).meta?.driverAdapterError ??
    (error as AdapterError);
  const cause = adapterError.cause;
  return cause?.originalMessage ?? cause?.kind ?? (error instanceof Error ? error.message : String(error));
}
