// vitest's global setup, after the build: one migrated database of this run's kind, made once per run, that
// each test's fresh database starts as a copy of (server.ts: a copied SQLite file, or PostgreSQL's
// CREATE DATABASE ... TEMPLATE), instead of every server applying every migration to an empty one. A copy
// takes a few milliseconds on SQLite and a tenth of a second on PostgreSQL, where migrating takes seconds.
// The template is made by the run's own `cms migrate`, so it is what any server of this build would make;
// it holds the schema only (no installation ID: storage makes that on first start, per copy).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { builtOrSource, freshDatabase, usesPostgres } from "./server.ts";

const root = new URL("../..", import.meta.url).pathname;

export default async function setup(): Promise<() => Promise<void>> {
  const template = await freshDatabase(usesPostgres ? "postgres" : "sqlite", { empty: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "", ...template.env };
  delete env.NODE_OPTIONS;
  execFileSync(process.execPath, [...builtOrSource("cms"), "migrate"], { cwd: root, env, stdio: "pipe" });
  if (usesPostgres) {
    process.env.CMS_TEST_POSTGRES_TEMPLATE = new URL(String(template.env.DATABASE_URL)).pathname.slice(1);
  } else {
    const file = join(String(template.env.CMS_DATA_DIR), "cms.db");
    // Closed cleanly, the file holds everything: no write-ahead log is left beside it to copy.
    if (existsSync(`${file}-wal`)) throw new Error("the migrated SQLite template left a WAL file");
    process.env.CMS_TEST_SQLITE_TEMPLATE = file;
  }
  return template.drop;
}
