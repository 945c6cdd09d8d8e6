// The data generation: a value that changes whenever committed data may have changed, by this process or
// any other. Read caches key what they keep by it (src/schema/read-cache.ts), so they never serve a
// result older than the newest commit. It may change without a write (a harmless miss), never the
// reverse: a reader takes the generation *before* it reads, so what it keeps is at least that new.
import type Database from "better-sqlite3";

export type Generation = () => Promise<string>;

/**
 * A generation read before the database is connected: a value never seen again, so nothing is kept.
 * `connected` installs the real one once the adapter exists (Prisma connects at its first query).
 */
export function lateGeneration(): { generation: Generation; connected(real: Generation): void } {
  let real: Generation | undefined;
  let unconnected = 0;
  return {
    generation: () => (real ? real() : Promise.resolve(`unconnected.${unconnected++}`)),
    connected: (generation) => {
      real = generation;
    },
  };
}

type Adapter = {
  queryRaw(query: { sql: string }): Promise<unknown>;
  executeRaw(query: { sql: string }): Promise<unknown>;
  startTransaction(...args: never[]): Promise<{ commit(): Promise<void>; rollback(): Promise<void> }>;
};

/**
 * SQLite: this connection's writes are counted (after each write statement and each transaction's end,
 * when they are visible), and `PRAGMA data_version` changes when another connection (the CLI, a second
 * process on the file) commits. Reading it costs microseconds.
 */
export function sqliteGeneration(adapter: Adapter, client: Database.Database): Generation {
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  let writes = 0;
  countWrites(adapter, () => writes++);
  return async () => `${writes}.${dataVersion.get() as number}`;
}

/**
 * PostgreSQL: the server's snapshot `xmin:xmax:xip_list` changes whenever a writing transaction of any
 * session starts (xmax) or ends (it leaves the in-progress list), so a commit by another server process
 * is seen by the next request here. Read-only transactions take no transaction ID and change nothing.
 */
export function postgresGeneration(adapter: Adapter & { queryRaw(query: unknown): Promise<unknown> }) {
  const query = { sql: "SELECT pg_current_snapshot()::text", args: [], argTypes: [] };
  // Bound now, before any wrapper (query-count.ts) adds itself: this is bookkeeping, not a request's SQL.
  const queryRaw = adapter.queryRaw.bind(adapter);
  return async () => {
    const result = (await queryRaw(query)) as { rows: unknown[][] };
    return String(result.rows[0]?.[0]);
  };
}

const reads = /^\s*SELECT\b/i;

function countWrites(adapter: Adapter, written: () => void): void {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  // Prisma writes through queryRaw too (INSERT … RETURNING).
  adapter.queryRaw = async (query) => {
    if (reads.test(query.sql)) return queryRaw(query);
    try {
      return await queryRaw(query);
    } finally {
      written();
    }
  };
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } finally {
      written();
    }
  };
  adapter.startTransaction = async (...args) => {
    const tx = await startTransaction(...args);
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = () => commit().finally(written);
    tx.rollback = () => rollback().finally(written);
    return tx;
  };
}
