// The data generation: a value that changes whenever committed data may have changed, by this process or
// any other. Read caches key what they keep by it (src/schema/read-cache.ts), so they never serve a
// result older than the newest commit. It may change without a write (a harmless miss), never the
// reverse: a reader takes the generation *before* it reads, so what it keeps is at least that new.
// On SQLite it can also be told for some tables alone (table-writes.ts). What depends on the clock as
// well (entries scheduled for later) is added by schedule.ts, from `scheduleReading`.
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

/** The generation as a database tells it, which the schedule of publish moments reads (schedule.ts). */
export interface DatabaseGeneration extends Generation {
  /** The whole generation with what the schedule needs to know at `now`. */
  scheduleReading(now: number): Promise<ScheduleReading>;
}

/** One reading of the generation for the schedule (schedule.ts). Times are milliseconds since 1970. */
export interface ScheduleReading {
  /** The whole generation. */
  generation: string;
  /** Changes whenever entries may have: the Entry table's generation where the database tells it. */
  entries: string;
  /** The earliest `publishedAt` after `now` of a published entry, as of this reading; null: none. */
  nextPublish(): Promise<number | null>;
}

/**
 * A generation read before the database is connected: a value never seen again, so nothing is kept.
 * `connected` installs the real one once the adapter exists (Prisma connects at its first query).
 */
export function lateGeneration(): {
  generation: DatabaseGeneration;
  connected(real: DatabaseGeneration): void;
} {
  let real: DatabaseGeneration | undefined;
  let unconnected = 0;
  const generation = () => (real ? real() : Promise.resolve(`unconnected.${unconnected++}`));
  generation.of = async (tables: readonly string[], current: () => Promise<string>) =>
    real ? real.of(tables, current) : `unconnected.${unconnected++}`;
  generation.scheduleReading = async (now: number): Promise<ScheduleReading> => {
    if (real) return real.scheduleReading(now);
    const never = `unconnected.${unconnected++}`;
    return { generation: never, entries: never, nextPublish: async () => null };
  };
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
 * The next publish moment is read only when the Entry table's generation changed (schedule.ts), on this
 * connection directly: a read waiting behind an open transaction (sqlite-adapter.ts) could wait for the
 * very request that asked. Inside a transaction it may see that transaction's writes; its end changes
 * the Entry table's generation again, so what was read is read anew.
 */
export function sqliteGeneration(adapter: Adapter, client: Database.Database): DatabaseGeneration {
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  // The adapter's prepare is wrapped later (sqlite-adapter.ts); this one is better-sqlite3's own.
  const prepare = client.prepare.bind(client);
  let nextPublish: Database.Statement | undefined;
  const writes = new TableWrites(client);
  countWrites(adapter, writes);
  const generation = async () => `${writes.generation()}.${dataVersion.get() as number}`;
  generation.of = async (tables: readonly string[]) =>
    `${writes.generation(tables)}.${dataVersion.get() as number}`;
  generation.scheduleReading = async (now: number): Promise<ScheduleReading> => {
    const version = dataVersion.get() as number;
    return {
      generation: `${writes.generation()}.${version}`,
      entries: `${writes.generation(ENTRY_TABLE)}.${version}`,
      nextPublish: async () => {
        // Prepared on first use: the table exists once the database is migrated, not at connect.
        nextPublish ??= prepare(NEXT_PUBLISH_SQLITE).pluck();
        const found = nextPublish.get(sqliteDateTime(now)) as string | number | null | undefined;
        return found == null ? null : new Date(found).getTime();
      },
    };
  };
  return generation;
}

const ENTRY_TABLE = ["Entry"] as const;

// Served by the index on (published, publishedAt): one index seek.
const NEXT_PUBLISH_SQLITE = `SELECT "publishedAt" FROM "Entry" WHERE "published" = 1 AND "publishedAt" > ?
  ORDER BY "publishedAt" LIMIT 1`;

/** A time as Prisma's SQLite adapter stores DateTime columns (ISO 8601 text), so that text order is time order. */
function sqliteDateTime(time: number): string {
  return new Date(time).toISOString().replace("Z", "+00:00");
}

/** The tables whose every write adds to `LookupTablesVersion` on PostgreSQL (its migration's triggers). */
const LOOKUP_TABLES: ReadonlySet<string> = new Set(["Account", "ApiToken", "Collection", "Blueprint"]);

/**
 * PostgreSQL: the server's snapshot `xmin:xmax:xip_list` changes whenever a writing transaction of any
 * session starts (xmax) or ends (it leaves the in-progress list), so a commit by another server process
 * is seen by the next request here. Read-only transactions take no transaction ID and change nothing.
 * The same query reads the lookup tables' version, which only their own writes change: the generation of
 * any of those tables. The next publish moment is a query of its own, made only when the snapshot
 * changed (schedule.ts): added to the generation's query it would cost every request its planning (the
 * Entry table has many indexes to weigh), some 0.1 ms.
 */
export function postgresGeneration(
  adapter: Adapter & { queryRaw(query: unknown): Promise<unknown> },
): DatabaseGeneration {
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
  generation.scheduleReading = async (now: number): Promise<ScheduleReading> => {
    const whole = await generation();
    return {
      generation: whole,
      entries: whole,
      nextPublish: async () => {
        const result = (await queryRaw({
          sql: NEXT_PUBLISH_POSTGRES,
          args: [new Date(now).toISOString()],
          argTypes: [{ scalarType: "string", arity: "scalar" }],
        })) as { rows: unknown[][] };
        const next = result.rows[0]?.[0];
        return next == null ? null : Number(next);
      },
    };
  };
  return generation;
}

// Served by the index on (published, publishedAt): one index seek. publishedAt is a UTC timestamp.
const NEXT_PUBLISH_POSTGRES = `SELECT (extract(epoch FROM "publishedAt") * 1000)::bigint::text FROM "Entry"
  WHERE "published" AND "publishedAt" > ($1::timestamptz AT TIME ZONE 'UTC') ORDER BY "publishedAt" LIMIT 1`;

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
