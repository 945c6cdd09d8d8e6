// Inserting many rows of the import's three large tables (entries, their revisions, their references)
// as multi-row INSERT statements through Prisma's raw query: createMany costs some 120 µs a row in the
// query engine, which is most of a 100,000-entry import; a raw statement of a thousand rows costs a
// tenth of that. Values are bound parameters, never spliced into the text; each column says how its
// value is stored, the one thing the two databases write differently (dates, JSON, booleans).
import type { DbProvider } from "../../db/client.ts";
import { batches, type Tx } from "./run.ts";

export type ColumnKind = "text" | "int" | "bool" | "date" | "json";

export interface Table<Row> {
  name: "Entry" | "Revision" | "EntryReference";
  columns: { name: string; kind: ColumnKind; value: (row: Row) => unknown }[];
}

/** Within SQLite's 32,766 bound parameters (PostgreSQL allows 65,535). */
const MAX_PARAMETERS = 30_000;

export async function insertRows<Row>(
  tx: Tx,
  provider: DbProvider,
  table: Table<Row>,
  rows: readonly Row[],
): Promise<void> {
  const { columns } = table;
  const names = columns.map((column) => `"${column.name}"`).join(", ");
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (const chunk of batches(rows, perStatement)) {
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const slots = columns.map((column) => {
        values.push(stored(provider, column.kind, column.value(row)));
        return placeholder(provider, column.kind, values.length);
      });
      return `(${slots.join(", ")})`;
    });
    await tx.$executeRawUnsafe(
      `INSERT INTO "${table.name}" (${names}) VALUES ${tuples.join(", ")}`,
      ...values,
    );
  }
}

function placeholder(provider: DbProvider, kind: ColumnKind, index: number): string {
  if (provider === "sqlite") return "?";
  if (kind === "json") return `$${index}::jsonb`;
  if (kind === "date") return `$${index}::timestamp(3)`;
  return `$${index}`;
}

/** As Prisma stores it: on SQLite a date is ISO text with `+00:00`, a boolean 0 or 1, JSON its text. */
function stored(provider: DbProvider, kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "date": {
      const iso = (value as Date).toISOString();
      return provider === "sqlite" ? iso.replace("Z", "+00:00") : iso.replace("Z", "");
    }
    case "json":
      return JSON.stringify(value);
    case "bool":
      return provider === "sqlite" ? (value ? 1 : 0) : value;
    default:
      return value;
  }
}
