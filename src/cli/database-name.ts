// Which database the CLI used, in words: a CLI run without the server's DATABASE_URL once made an
// account in ./data/cms.db that a PostgreSQL server then did not know.
import { join, resolve } from "node:path";
import type { Config } from "../config.ts";

export function databaseName({ databaseUrl, dataDir }: Pick<Config, "databaseUrl" | "dataDir">): string {
  if (!databaseUrl)
    return `the embedded SQLite database ${join(dataDir, "cms.db")} (CMS_DATA_DIR; DATABASE_URL is unset)`;
  if (databaseUrl.startsWith("file:"))
    return `the SQLite database ${resolve(databaseUrl.slice(5))} (DATABASE_URL)`;
  // Host, port and name only: the URL may hold a password.
  const { hostname, port, pathname } = new URL(databaseUrl);
  const name = decodeURIComponent(pathname.slice(1));
  return `the PostgreSQL database "${name}" at ${hostname || "localhost"}:${port || 5432} (DATABASE_URL)`;
}
