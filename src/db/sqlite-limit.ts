// SQLite (3.49, as better-sqlite3 builds it) prepares a statement anew every time a value is bound to its
// LIMIT: the planner may use a limit that is an integer, so any binding marks the plan stale, even the
// same value (better-sqlite3 binds JS numbers as REAL, which the planner then does not even use). Prisma
// binds the LIMIT of every findFirst, findUnique and page, so each of those reads was parsed and planned
// again on every run: 5 % of a single entry's CPU under `perf`; an indexed lookup took 14 µs with its limit
// bound and 8 µs with it written in. OFFSET does not do this.
//
// So the limit of a statement ending in `LIMIT ?` is written into its text: one kept statement per limit.
// Written in, the planner does read it (a fixed limit may favour the index that gives the order); the 34
// statements with a limit that the bench's workloads send planned the same either way (docs/performance.md).
// Clients choose some limits (per_page, a connection's first), so each text gets at most
// LIMITS_PER_TEXT written in: the first ones run, usually an app's few page sizes; others stay bound.

import { LRUCache } from "lru-cache";

const LIMIT = " LIMIT ?";
const LIMIT_OFFSET = " LIMIT ? OFFSET ?";
export const LIMITS_PER_TEXT = 4;

export interface FixedLimits {
  /** The text and arguments to run: `sql`'s trailing bound LIMIT written in, where it may be. */
  (sql: string, args: unknown[]): { sql: string; args: unknown[] };
}

/** For one connection: which limits each text has had written in, for as many texts as are kept. */
export function fixedLimits(texts: number): FixedLimits {
  const written = new LRUCache<string, (number | bigint)[]>({ max: texts });
  return (sql, args) => {
    const offset = sql.endsWith(LIMIT_OFFSET);
    if (!offset && !sql.endsWith(LIMIT)) return { sql, args };
    const start = sql.length - (offset ? LIMIT_OFFSET : LIMIT).length;
    // `... -- LIMIT ?`: a comment, not a clause.
    if (sql.includes("--", sql.lastIndexOf("\n", start) + 1)) return { sql, args };
    const at = args.length - (offset ? 2 : 1);
    const limit = args[at];
    if (!Number.isSafeInteger(limit) && typeof limit !== "bigint") return { sql, args };
    const limits = written.get(sql) ?? [];
    if (!limits.includes(limit as number | bigint)) {
      if (limits.length >= LIMITS_PER_TEXT) return { sql, args };
      written.set(sql, [...limits, limit as number | bigint]);
    }
    return {
      sql: `${sql.slice(0, start)} LIMIT ${limit}${offset ? " OFFSET ?" : ""}`,
      args: args.toSpliced(at, 1),
    };
  };
}
