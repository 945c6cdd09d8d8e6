// A fresh database for one bench run: a new data directory (the embedded database lives in it), and with
// --pg a new PostgreSQL database on the server of BENCH_POSTGRES_URL (default 127.0.0.1:5432), dropped at
// the end like the tests' (test/helpers/server.ts).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface BenchDatabase {
  provider: "sqlite" | "postgresql";
  dataDir: string;
  /** DATABASE_URL for PostgreSQL; the embedded database file otherwise. */
  url: string;
  /** What the server needs in its environment to use this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

const postgresUrl =
  process.env.BENCH_POSTGRES_URL ??
  process.env.TEST_POSTGRES_URL ??
  "postgresql://postgres@127.0.0.1:5432/postgres";

export async function freshDatabase(postgres: boolean): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "cms-bench-"));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (!postgres) {
    return {
      provider: "sqlite",
      dataDir,
      url: join(dataDir, "cms.db"),
      env: { CMS_DATA_DIR: dataDir },
      drop: removeDir,
    };
  }
  const name = `cms_bench_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    provider: "postgresql",
    dataDir,
    url: url.toString(),
    env: { CMS_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await removeDir();
    },
  };
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
