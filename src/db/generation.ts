// The data generation a request reads before it reads anything: `<stamp>@<as of>`. The stamp is the
// moment of changes.ts (what changed since is known per account and table), the as-of time the schedule
// epoch's (schedule.ts: public reads are made as of it). Read caches keep what they keep under its stamp.
// This file holds what the schedule asks the database directly: the next publish moment after a time.
import type { PrismaPg } from "@prisma/adapter-pg";
import type Database from "better-sqlite3";
import type { Changes } from "./changes.ts";

export interface Generation {
  (): Promise<string>;
  /**
   * The stamp alone, after every change another server process acknowledged before the call (its writer
   * waits until it is heard: changes.ts `settle`; SQLite reads data_version here): what a lookup of some
   * tables is kept under (read-cache.ts ends those by their tables).
   */
  stamp(): Promise<number>;
  /** The generation of a stamp taken before (`stamp`): with the schedule epoch of now. */
  at(stamp: number): Promise<string>;
  /** What changed, per account and table, since a stamp. */
  changes: Changes;
}

/** What the schedule asks the database (times in ms since 1970). */
export interface ScheduleReads {
  /** The earliest `publishedAt` after `time` of a published entry, or null: none. */
  nextPublish(time: number): Promise<number | null>;
  /**
   * The accounts with a published entry whose `publishedAt` is after `after` and at most `upTo`: their
   * entries came into view between the two. Undefined when not known (any account may have).
   */
  dueAccounts(after: number, upTo: number): Promise<string[] | undefined>;
}

/**
 * Schedule reads installed once the database is connected (Prisma connects at its first query). Until
 * then the next moment is the very next millisecond, so an epoch begun before ends at once, and which
 * accounts came due is not known.
 */
export function lateScheduleReads(): { reads: ScheduleReads; connected(real: ScheduleReads): void } {
  let real: ScheduleReads | undefined;
  return {
    reads: {
      nextPublish: (time) => (real ? real.nextPublish(time) : Promise.resolve(time + 1)),
      dueAccounts: (after, upTo) => (real ? real.dueAccounts(after, upTo) : Promise.resolve(undefined)),
    },
    connected: (connected) => {
      real = connected;
    },
  };
}

// Served by the index on (published, publishedAt): one index seek, and a range of it for the due accounts.
const NEXT_PUBLISH_SQLITE = `SELECT "publishedAt" FROM "Entry" WHERE "published" = 1 AND "publishedAt" > ?
  ORDER BY "publishedAt" LIMIT 1`;
const DUE_ACCOUNTS_SQLITE = `SELECT DISTINCT "accountId" FROM "Entry" WHERE "published" = 1
  AND "publishedAt" > ? AND "publishedAt" <= ?`;

/**
 * SQLite: on the connection directly, not through the adapter: a read waiting behind an open transaction
 * (sqlite-adapter.ts) could wait for the very request that asked. Inside a transaction it may see that
 * transaction's writes; its end, committed or rolled back, is a change of their accounts again
 * (sqlite-changes.ts), so what was read is read anew.
 */
export function sqliteScheduleReads(client: Database.Database): ScheduleReads {
  // better-sqlite3's own, bound before the adapter's wrapper (sqlite-adapter.ts) replaces it.
  const prepare = client.prepare.bind(client);
  // Prepared on first use: the table exists once the database is migrated, not at connect.
  let next: Database.Statement | undefined;
  let due: Database.Statement | undefined;
  return {
    nextPublish: async (time) => {
      next ??= prepare(NEXT_PUBLISH_SQLITE).pluck();
      const found = next.get(sqliteDateTime(time)) as string | number | null | undefined;
      return found == null ? null : new Date(found).getTime();
    },
    dueAccounts: async (after, upTo) => {
      due ??= prepare(DUE_ACCOUNTS_SQLITE).pluck();
      return due.all(sqliteDateTime(after), sqliteDateTime(upTo)) as string[];
    },
  };
}

/** A time as Prisma's SQLite adapter stores DateTime columns (ISO 8601 text), so that text order is time order. */
function sqliteDateTime(time: number): string {
  return new Date(time).toISOString().replace("Z", "+00:00");
}

// Served by the index on (published, publishedAt), as on SQLite. publishedAt is a UTC timestamp.
const utc = (parameter: string) => `(${parameter}::timestamptz AT TIME ZONE 'UTC')`;
const NEXT_PUBLISH_POSTGRES = `SELECT (extract(epoch FROM "publishedAt") * 1000)::bigint::text FROM "Entry"
  WHERE "published" AND "publishedAt" > ${utc("$1")} ORDER BY "publishedAt" LIMIT 1`;
const DUE_ACCOUNTS_POSTGRES = `SELECT DISTINCT "accountId" FROM "Entry"
  WHERE "published" AND "publishedAt" > ${utc("$1")} AND "publishedAt" <= ${utc("$2")}`;

type PostgresAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/** PostgreSQL: bound to the adapter before any wrapper (query-count.ts): bookkeeping, not a request's SQL. */
export function postgresScheduleReads(adapter: Pick<PostgresAdapter, "queryRaw">): ScheduleReads {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const rows = async (sql: string, times: number[]) => {
    const result = (await queryRaw({
      sql,
      args: times.map((time) => new Date(time).toISOString()),
      argTypes: times.map(() => ({ scalarType: "string", arity: "scalar" })),
    })) as { rows: unknown[][] };
    return result.rows;
  };
  return {
    nextPublish: async (time) => {
      const next = (await rows(NEXT_PUBLISH_POSTGRES, [time]))[0]?.[0];
      return next == null ? null : Number(next);
    },
    dueAccounts: async (after, upTo) =>
      (await rows(DUE_ACCOUNTS_POSTGRES, [after, upTo])).map((row) => String(row[0])),
  };
}
