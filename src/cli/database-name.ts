// Which database the CLI used, in words: a CLI run without the server's DATABASE_URL makes its account in
// ./data/cms.db, which a PostgreSQL server does not know, and the output says so.
import { join, resolve } from "node:path";
import type { Config } from "../config.ts";

export function databaseName({
  databaseUrl,
  dataDir,
  settingsFile,
}: Pick<Config, "databaseUrl" | "dataDir" | "settingsFile">): string {
  // Where the variable was set, when it was the settings file rather than the environment.
  const setting = (name: string) =>
    settingsFile?.names.includes(name) ? `${name} from ${settingsFile.path}` : name;
  if (!databaseUrl)
    return `the embedded SQLite database ${join(dataDir, "cms.db")} (${setting("CMS_DATA_DIR")}; DATABASE_URL is unset)`;
  if (databaseUrl.startsWith("file:"))
    return `the SQLite database ${resolve(databaseUrl.slice(5))} (${setting("DATABASE_URL")})`;
  // Host, port and name only: the URL may hold a password.
  const { hostname, port, pathname } = new URL(databaseUrl);
  const name = decodeURIComponent(pathname.slice(1));
  return `the PostgreSQL database "${name}" at ${hostname || "localhost"}:${port || 5432} (${setting("DATABASE_URL")})`;
}
