// The data generation a request reads before it reads anything: `<stamp>@<as of>`. The stamp is the
// moment of changes.ts (what changed since is known per account and table), the as-of time the schedule
// epoch's (schedule.ts: public reads are made as of it). Read caches key what they keep by it.
// This file holds what the schedule asks the database directly: the next publish moment after a time.
import type { PrismaPg } from "@prisma/adapter-pg";
import type Database from "better-sqlite3";
import type { Changes } from "./changes.ts";

export interface Generation {
  (): Promise<string>;
  /**
   * The stamp alone, after every change another server process acknowledged before the call (its writer
   * waits until it is heard: changes.ts `settle`; SQLite reads data_version here): what a lookup of some
   * tables is kept under (read-cache.ts ends those by their tables, whatever the schedule epoch).
   */
  stamp(): Promise<number>;
  /** The generation of a stamp taken before (`stamp`): with the schedule epoch of now. */
  at(stamp: number): Promise<string>;
  /** What changed, per account and table, since a stamp. */
  changes: Changes;
}

/** The earliest `publishedAt` after `time` of a published entry (ms since 1970), or null: none. */
export type NextPublish = (time: number) => Promise<number | null>;

/**
 * A next-publish reader installed once the database is connected (Prisma connects at its first query);
 * until then it answers the very next millisecond, so an epoch begun before ends at once.
 */
export function lateNextPublish(): { nextPublish: NextPublish; connected(real: NextPublish): void } {
  let real: NextPublish | undefined;
  return {
    nextPublish: (time) => (real ? real(time) : Promise.resolve(time + 1)),
    connected: (connected) => {
      real = connected;
    },
  };
}

// Served by the index on (published, publishedAt): one index seek.
const NEXT_PUBLISH_SQLITE = `SELECT "publishedAt" FROM "Entry" WHERE "published" = 1 AND "publishedAt" > ?
  ORDER BY "publishedAt" LIMIT 1`;

/**
 * SQLite: on the connection directly, not through the adapter: a read waiting behind an open transaction
 * (sqlite-adapter.ts) could wait for the very request that asked. Inside a transaction it may see that
 * transaction's writes; its end is a change of entries again, so what was read is read anew.
 */
export function sqliteNextPublish(client: Database.Database): NextPublish {
  // better-sqlite3's own, bound before the adapter's wrapper (sqlite-adapter.ts) replaces it.
  const prepare = client.prepare.bind(client);
  let statement: Database.Statement | undefined;
  return async (time) => {
    // Prepared on first use: the table exists once the database is migrated, not at connect.
    statement ??= prepare(NEXT_PUBLISH_SQLITE).pluck();
    const found = statement.get(sqliteDateTime(time)) as string | number | null | undefined;
    return found == null ? null : new Date(found).getTime();
  };
}

/** A time as Prisma's SQLite adapter stores DateTime columns (ISO 8601 text), so that text order is time order. */
function sqliteDateTime(time: number): string {
  return new Date(time).toISOString().replace("Z", "+00:00");
}

// Served by the index on (published, publishedAt): one index seek. publishedAt is a UTC timestamp.
const NEXT_PUBLISH_POSTGRES = `SELECT (extract(epoch FROM "publishedAt") * 1000)::bigint::text FROM "Entry"
  WHERE "published" AND "publishedAt" > ($1::timestamptz AT TIME ZONE 'UTC') ORDER BY "publishedAt" LIMIT 1`;

type PostgresAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/** PostgreSQL: bound to the adapter before any wrapper (query-count.ts): bookkeeping, not a request's SQL. */
export function postgresNextPublish(adapter: Pick<PostgresAdapter, "queryRaw">): NextPublish {
  const queryRaw = adapter.queryRaw.bind(adapter);
  return async (time) => {
    const result = (await queryRaw({
      sql: NEXT_PUBLISH_POSTGRES,
      args: [new Date(time).toISOString()],
      argTypes: [{ scalarType: "string", arity: "scalar" }],
    })) as { rows: unknown[][] };
    const next = result.rows[0]?.[0];
    return next == null ? null : Number(next);
  };
}
