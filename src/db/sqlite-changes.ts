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

/** Told when a transaction of the connection ends. */
export interface TransactionEnds {
  ended(committed: boolean): void;
}

export function hearSqliteChanges(client: Database.Database, changes: Changes): TransactionEnds {
  // A table for inserted and updated rows, none for deleted ones (changes.ts); no account: everything.
  const tell = (account: unknown, table: unknown) => {
    if (typeof account === "string") changes.changed(account, typeof table === "string" ? table : undefined);
    else changes.everything();
  };
  // What the open transaction's writes told, told again if it rolls back: undoing them is a change too.
  // Reads of the connection made meanwhile outside the adapter (the schedule's, generation.ts) and lookups
  // kept inside the transaction saw rows that are gone.
  // Once per account and table: a bulk import writes many rows of a few.
  let told = new Map<string, [unknown, unknown]>();
  client.function("cms_changed", { deterministic: false }, (account, table) => {
    tell(account, table);
    if (client.inTransaction) told.set(`${account}\u0000${table}`, [account, table]);
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
  return {
    ended: (committed) => {
      const undone = told;
      told = new Map();
      if (!committed) for (const [account, table] of undone.values()) tell(account, table);
    },
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
