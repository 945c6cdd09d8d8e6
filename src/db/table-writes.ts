// This connection's writes, counted per table, so that what a read keeps about some tables (a token, a
// collection and its blueprints) outlives writes to others (a stream of new entries). A write counts for
// its own table and, when it updates or deletes rows, for every table whose foreign keys may cascade from
// it (the schema's graph, read from SQLite again whenever the schema changed, by any process). A statement
// it cannot attribute (DDL, a rollback, anything unusual) counts for every table.
import type Database from "better-sqlite3";

const write =
  /^\s*(?:(INSERT|REPLACE)(?:\s+OR\s+(\w+))?\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+(?:[`"]?main[`"]?\.)?[`"]?(\w+)[`"]?(?=[\s(]|$)/i;

const upsert = /\bON\s+CONFLICT\b/i;

/** Beginning or committing changes no table itself: the statements inside are counted. */
const control = /^\s*(BEGIN|COMMIT|END|SAVEPOINT|RELEASE)\b/i;

/** The tables a write statement may change; undefined when it cannot tell (then: all of them). */
export type Changed = ReadonlySet<string> | undefined;

export class TableWrites {
  private readonly counts = new Map<string, number>();
  /** Writes that changed every table. */
  private everything = 0;
  private total = 0;
  /** Table -> the tables whose foreign keys reference it, as of `schemaVersion`. */
  private referencing: Map<string, string[]> | undefined;
  private schemaVersion = -1;

  constructor(private readonly client: Database.Database) {}

  /** What `sql`, a statement that is not a plain read, may change. */
  changedBy(sql: string): Changed {
    if (control.test(sql)) return new Set();
    const match = write.exec(sql);
    const table = match?.[3];
    if (!table) return undefined;
    // Inserts change their own table only; updates, deletes, replaces and upserts may cascade.
    const plainInsert =
      match[1]?.toUpperCase() === "INSERT" && match[2]?.toUpperCase() !== "REPLACE" && !upsert.test(sql);
    return plainInsert ? new Set([table]) : this.cascadeFrom(table);
  }

  /** Counts a write of `changed` (undefined: of every table). */
  count(changed: Changed): void {
    this.total++;
    if (!changed) {
      this.everything++;
      return;
    }
    for (const table of changed) this.counts.set(table, (this.counts.get(table) ?? 0) + 1);
  }

  /** A value that changes whenever this connection wrote any of `tables` (any table, when not given). */
  generation(tables?: readonly string[]): string {
    if (!tables) return String(this.total);
    return [this.everything, ...tables.map((table) => this.counts.get(table) ?? 0)].join(".");
  }

  private cascadeFrom(table: string): Set<string> {
    const graph = this.graph();
    const reached = new Set([table]);
    for (const from of reached) for (const child of graph.get(from) ?? []) reached.add(child);
    return reached;
  }

  private graph(): Map<string, string[]> {
    // The schema cookie changes with every schema change, this connection's or another process's.
    const version = this.client.pragma("schema_version", { simple: true }) as number;
    if (this.referencing && version === this.schemaVersion) return this.referencing;
    const edges = this.client
      .prepare(
        `SELECT m.name AS child, f."table" AS parent
         FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table'`,
      )
      .all() as { child: string; parent: string }[];
    const graph = new Map<string, string[]>();
    for (const { child, parent } of edges) graph.set(parent, [...(graph.get(parent) ?? []), child]);
    this.referencing = graph;
    this.schemaVersion = version;
    return graph;
  }
}
