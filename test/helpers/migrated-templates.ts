// vitest's global setup, after the build: one migrated database of this run's kind, made once per run, that
// each test's fresh database starts as a copy of (server.ts: a copied SQLite file, or PostgreSQL's
// CREATE DATABASE ... TEMPLATE), instead of every server applying every migration to an empty one. A copy
// takes a few milliseconds on SQLite and a tenth of a second on PostgreSQL, where migrating takes seconds.
// The template is made by the run's own `cms migrate`, so it is what any server of this build would make;
// it holds the schema only (no installation ID: storage makes that on first start, per copy).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const root = new URL("../..", import.meta.url).pathname;
const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "cms-template-"));
  const env: NodeJS.ProcessEnv = { ...process.env, CMS_DATA_DIR: dir, DATABASE_URL: "" };
  delete env.NODE_OPTIONS;
  let name: string | undefined;
  if (process.env.TEST_DATABASE === "postgres") {
    name = `cms_template_${randomBytes(6).toString("hex")}`;
    await adminStatement(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  migrate(env);
  if (name) process.env.CMS_TEST_POSTGRES_TEMPLATE = name;
  else {
    // Closed cleanly, the file holds everything: no write-ahead log is left beside it to copy.
    if (existsSync(join(dir, "cms.db-wal"))) throw new Error("the migrated SQLite template left a WAL file");
    process.env.CMS_TEST_SQLITE_TEMPLATE = join(dir, "cms.db");
  }
  return async () => {
    if (name) await adminStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  };
}

/** This run's `cms migrate` (its build, test/helpers/build.ts, or the sources when there is none). */
function migrate(env: NodeJS.ProcessEnv): void {
  const built = process.env.CMS_TEST_BUILD;
  const cms = built ? [join(built, "cms.mjs")] : ["--import", "tsx", "src/cli/cms.ts"];
  execFileSync(process.execPath, [...cms, "migrate"], { cwd: root, env, stdio: "pipe" });
}

async function adminStatement(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
