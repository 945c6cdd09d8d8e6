// Applies the committed migration.sql files of the active provider, each once, in name order, and records
// them in Prisma's own _prisma_migrations table (so `prisma migrate status` agrees). Going through the
// Prisma client keeps start-up fast and offline.
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
 */
export async function migrate(database: Database): Promise<string[]> {
  const { db, provider } = database;
  await db.$executeRawUnsafe(createTable[provider]);
  const rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`,
  );
  const done = new Set(rows.map((row) => row.migration_name));
  const dir = join(migrationsRoot, provider, "migrations");
  const pending = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !done.has(entry.name))
    .map((entry) => entry.name)
    .sort();

  for (const name of pending) {
    const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
    const checksum = createHash("sha256").update(sql).digest("hex");
    await db.$transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.$executeRawUnsafe(statement);
      await tx.$executeRaw`INSERT INTO "_prisma_migrations"
        ("id", "checksum", "migration_name", "finished_at", "applied_steps_count")
        VALUES (${randomUUID()}, ${checksum}, ${name}, CURRENT_TIMESTAMP, 1)`;
    });
  }
  if (database.recordsRevisions) await recordEntryRevisions(database);
  return pending;
}

/**
 * Prisma writes one statement per `;`-terminated block; drivers take one statement per call. A line's
 * `;` inside a dollar-quoted body (a PostgreSQL function's) ends no statement.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = "";
  let quoted = false;
  for (const line of sql.replace(/^--.*$/gm, "").split("\n")) {
    current += `${line}\n`;
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) quoted = !quoted;
    if (!quoted && /;\s*$/.test(line)) {
      statements.push(current.replace(/;\s*$/, ""));
      current = "";
    }
  }
  statements.push(current);
  return statements.map((statement) => statement.trim()).filter(Boolean);
}
