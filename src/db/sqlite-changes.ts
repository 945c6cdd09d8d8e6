// SQLite tells the server's connection of its own writes through TEMP triggers (they act on this
// connection only) calling a function of this process, `cms_changed(account, table)`, inside the
// writing statement: the change is known before the statement returns, so before its request answers.
// Another connection's commit (the CLI, a second process on the file) is seen through
// `PRAGMA data_version`, checked before every stamp (microseconds): SQLite does not say what it wrote, so
// it changes everything.
import type Database from "better-sqlite3";
import type { Changes } from "./changes.ts";

/** Tables whose rows name no account: a write to them changes everything. */
const ACCOUNTLESS = new Set(["ServerSetting"]);

/** The column naming a row's account. */
const accountColumn = (table: string) => (table === "Account" ? "id" : "accountId");

export function hearSqliteChanges(client: Database.Database, changes: Changes): void {
  // A table for inserted and updated rows, none for deleted ones (changes.ts); no account: everything.
  client.function("cms_changed", { deterministic: false }, (account, table) => {
    if (typeof account === "string") changes.changed(account, typeof table === "string" ? table : undefined);
    else changes.everything();
    return null;
  });
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  let seen = dataVersion.get();
  changes.beforeStamp = () => {
    const version = dataVersion.get();
    if (version === seen) return;
    seen = version;
    changes.everything();
  };
}

/** Creates the triggers (after the migrations, on the connection `hearSqliteChanges` was given). */
export function sqliteChangeTriggers(tables: readonly string[]): string[] {
  return tables.flatMap((table) => {
    const account = (row: "NEW" | "OLD") =>
      ACCOUNTLESS.has(table) ? "NULL" : `${row}."${accountColumn(table)}"`;
    const trigger = (event: string, row: "NEW" | "OLD", changed: string) =>
      `CREATE TEMP TRIGGER IF NOT EXISTS "cms_changed_${table}_${event.toLowerCase()}" AFTER ${event}
        ON main."${table}" BEGIN SELECT cms_changed(${account(row)}, ${changed}); END`;
    const named = `'${table}'`;
    return [
      trigger("INSERT", "NEW", named),
      trigger("UPDATE", "NEW", named),
      trigger("DELETE", "OLD", "NULL"),
    ];
  });
}

/** The data tables of the schema: everything but SQLite's own and the migrations' bookkeeping. */
export const DATA_TABLES_SQL = `SELECT name FROM sqlite_master WHERE type = 'table'
  AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'`;
