// The data generation: a value that changes whenever committed data may have changed, by this process or
// any other. Read caches key what they keep by it (src/schema/read-cache.ts), so they never serve a
// result older than the newest commit. It may change without a write (a harmless miss), never the
// reverse: a reader takes the generation *before* it reads, so what it keeps is at least that new.
// On SQLite it can also be told for some tables alone (table-writes.ts).
import type Database from "better-sqlite3";
import { type Changed, TableWrites } from "./table-writes.ts";

export interface Generation {
  (): Promise<string>;
  /**
   * The generation of these tables alone, where the database tells them apart; else undefined. `current`
   * gives the caller's own reading of the whole generation (PostgreSQL reads both in one query).
   */
  of(tables: readonly string[], current: () => Promise<string>): Promise<string | undefined>;
}

/**
 * A generation read before the database is connected: a value never seen again, so nothing is kept.
 * `connected` installs the real one once the adapter exists (Prisma connects at its first query).
 */
export function lateGeneration(): { generation: Generation; connected(real: Generation): void } {
  let real: Generation | undefined;
  let unconnected = 0;
  const generation = () => (real ? real() : Promise.resolve(`unconnected.${unconnected++}`));
  generation.of = async (tables: readonly string[], current: () => Promise<string>) =>
    real ? real.of(tables, current) : `unconnected.${unconnected++}`;
  return {
    generation,
    connected: (connectedGeneration) => {
      real = connectedGeneration;
    },
  };
}

type Adapter = {
  queryRaw(query: { sql: string }): Promise<unknown>;
  executeRaw(query: { sql: string }): Promise<unknown>;
  startTransaction(...args: never[]): Promise<{ commit(): Promise<void>; rollback(): Promise<void> }>;
};

/**
 * SQLite: this connection's writes are counted per table (after each write statement and again at its
 * transaction's end, when it is visible), and `PRAGMA data_version` changes when another connection (the
 * CLI, a second process on the file) commits, whatever it wrote. Reading it costs microseconds.
 */
export function sqliteGeneration(adapter: Adapter, client: Database.Database): Generation {
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  const writes = new TableWrites(client);
  countWrites(adapter, writes);
  const generation = async () => `${writes.generation()}.${dataVersion.get() as number}`;
  generation.of = async (tables: readonly string[]) =>
    `${writes.generation(tables)}.${dataVersion.get() as number}`;
  return generation;
}

/** The tables whose every write adds to `LookupTablesVersion` on PostgreSQL (its migration's triggers). */
const LOOKUP_TABLES: ReadonlySet<string> = new Set(["Account", "ApiToken", "Collection", "Blueprint"]);

/**
 * PostgreSQL: the server's snapshot `xmin:xmax:xip_list` changes whenever a writing transaction of any
 * session starts (xmax) or ends (it leaves the in-progress list), so a commit by another server process
 * is seen by the next request here. Read-only transactions take no transaction ID and change nothing.
 * The same query reads the lookup tables' version, which only their own writes change: the generation of
 * any of those tables.
 */
export function postgresGeneration(adapter: Adapter & { queryRaw(query: unknown): Promise<unknown> }) {
  const query = {
    sql: `SELECT pg_current_snapshot()::text,
      (SELECT sum("version") FROM "LookupTablesVersion")::text`,
    args: [],
    argTypes: [],
  };
  // Bound now, before any wrapper (query-count.ts) adds itself: this is bookkeeping, not a request's SQL.
  const queryRaw = adapter.queryRaw.bind(adapter);
  const generation = async () => {
    const result = (await queryRaw(query)) as { rows: unknown[][] };
    const [snapshot, lookup] = result.rows[0] ?? [];
    return `${snapshot}/${lookup ?? ""}`;
  };
  generation.of = async (tables: readonly string[], current: () => Promise<string>) => {
    if (!tables.every((table) => LOOKUP_TABLES.has(table))) return undefined;
    const lookup = (await current()).split("/")[1];
    return lookup ? `lookup.${lookup}` : undefined;
  };
  return generation;
}

const reads = /^\s*SELECT\b/i;

type Queryable = Pick<Adapter, "queryRaw" | "executeRaw">;

function countWrites(adapter: Adapter, writes: TableWrites): void {
  countStatements(adapter, (changed) => writes.count(changed));
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => {
    const tx = await startTransaction(...args);
    // Counted again when the transaction ends: then its writes are visible (or undone).
    const written: Changed[] = [];
    countStatements(tx as unknown as Queryable, (changed) => {
      written.push(changed);
      writes.count(changed);
    });
    const end = () => {
      for (const changed of written) writes.count(changed);
    };
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = () => commit().finally(end);
    tx.rollback = () => rollback().finally(end);
    return tx;
  };

  function countStatements(target: Queryable, count: (changed: Changed) => void): void {
    const queryRaw = target.queryRaw.bind(target);
    const executeRaw = target.executeRaw.bind(target);
    // Prisma writes through queryRaw too (INSERT … RETURNING).
    target.queryRaw = async (query) => {
      if (reads.test(query.sql)) return queryRaw(query);
      try {
        return await queryRaw(query);
      } finally {
        count(changedBy(query.sql));
      }
    };
    target.executeRaw = async (query) => {
      try {
        return await executeRaw(query);
      } finally {
        count(changedBy(query.sql));
      }
    };
  }

  /** What a statement changed; every table when that cannot be read (the connection closing, say). */
  function changedBy(sql: string): Changed {
    try {
      return writes.changedBy(sql);
    } catch {
      return undefined;
    }
  }
}
