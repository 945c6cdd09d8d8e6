// Inserting many rows of the import's three large tables (entries, their revisions, their references)
// through Prisma's raw query, many rows a statement. Not as a multi-row VALUES list with a bound
// parameter per value: Prisma carries each of those through its query compiler and text guard one by
// one (some 100 µs an entry in all, more than SQLite's own work). The rows go as ONE parameter, a JSON
// array of row arrays, which the database takes apart itself (json_each in SQLite, json_array_elements
// in PostgreSQL): still bound, never spliced into the text. Each column says how its value is stored,
// the one thing the two databases write differently (dates, JSON, booleans); text the databases cannot
// store (NUL, unpaired surrogates) is refused as the client's guard refuses it (db/text-guard.ts).
import type { DbProvider } from "../../db/client.ts";
import { fieldName, nulPath, UnstorableTextError } from "../../db/text-guard.ts";
import { batches, type Tx } from "./run.ts";

export type ColumnKind = "text" | "int" | "bool" | "date" | "json";

export interface Table<Row> {
  name: "Entry" | "Revision" | "EntryReference";
  columns: { name: string; kind: ColumnKind; value: (row: Row) => unknown }[];
}

/**
 * Rows a statement: one parameter whatever the count. Few enough that a statement holds the event loop
 * only briefly (SQLite's driver is synchronous: 5,000 entries with their revisions took some 0.6 s);
 * between two, `pause` lets other requests run.
 */
const ROWS_PER_STATEMENT = 500;

/** JSON.stringify writes NUL and unpaired surrogates as these escapes (an escaped backslash may precede). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

export async function insertRows<Row>(
  tx: Tx,
  provider: DbProvider,
  table: Table<Row>,
  rows: readonly Row[],
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<void> {
  const sql = insertStatement(provider, table);
  for (const chunk of batches(rows, ROWS_PER_STATEMENT)) {
    await pause();
    const tuples = chunk.map((row) => table.columns.map((column) => stored(provider, column, row)));
    const json = JSON.stringify(tuples);
    if (UNSTORABLE_ESCAPE.test(json)) refuseUnstorable(tuples, table);
    await tx.$executeRawUnsafe(sql, json);
  }
}

/** `INSERT INTO "T" (...) SELECT <each column from the row array> FROM <the parameter's rows>`. */
function insertStatement<Row>(provider: DbProvider, table: Table<Row>): string {
  const names = table.columns.map((column) => `"${column.name}"`).join(", ");
  const values = table.columns.map((column, index) => {
    // A JSON column's value is in the array as JSON (not JSON text in a string, escaped once more):
    // `->` answers its text as it was sent (SQLite) or it as jsonb (PostgreSQL); JSON null is SQL NULL.
    if (column.kind === "json")
      return provider === "sqlite"
        ? `nullif(value -> ${index}, 'null')`
        : `nullif((value -> ${index})::jsonb, 'null'::jsonb)`;
    return provider === "sqlite"
      ? `value ->> ${index}`
      : `(value ->> ${index})::${postgresType[column.kind]}`;
  });
  const rows = provider === "sqlite" ? "json_each(?)" : "json_array_elements($1::json) AS row(value)";
  return `INSERT INTO "${table.name}" (${names}) SELECT ${values.join(", ")} FROM ${rows}`;
}

const postgresType: Record<Exclude<ColumnKind, "json">, string> = {
  text: "text",
  int: "integer",
  bool: "boolean",
  date: "timestamp(3)",
};

/** As Prisma stores it: on SQLite a date is ISO text with `+00:00`, a boolean 0 or 1. */
function stored<Row>(provider: DbProvider, column: Table<Row>["columns"][number], row: Row): unknown {
  const value = column.value(row);
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case "date": {
      const iso = (value as Date).toISOString();
      return provider === "sqlite" ? iso.replace("Z", "+00:00") : iso.replace("Z", "");
    }
    case "bool":
      return provider === "sqlite" ? (value ? 1 : 0) : value;
    default:
      return value;
  }
}

/** Throws the guard's error for the first unstorable text, if there is one (the escape may be text). */
function refuseUnstorable<Row>(tuples: unknown[][], table: Table<Row>): void {
  for (const tuple of tuples) {
    for (const [index, column] of table.columns.entries()) {
      const path = nulPath(tuple[index]);
      if (path) throw new UnstorableTextError(fieldName(path.length > 0 ? path : [column.name]));
    }
  }
}
