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

/** The text and arguments to run: `sql`'s trailing bound LIMIT written in, where it may be. */
export type FixedLimits = (sql: string, args: unknown[]) => { sql: string; args: unknown[] };

/** A text ending in a bound LIMIT: where the clause starts, and the limits written in so far. */
interface LimitedText {
  start: number;
  limits: (number | bigint)[];
}

/** For one connection: which limits each text has had written in, for as many texts as are kept. */
export function fixedLimits(texts: number): FixedLimits {
  // Null: the text ends so, but in a comment (`... -- LIMIT ?`), not a clause. Looked at once a text.
  const known = new LRUCache<string, LimitedText | { start: null }>({ max: texts });
  const textOf = (sql: string, offset: boolean) => {
    const start = sql.length - (offset ? LIMIT_OFFSET : LIMIT).length;
    const comment = sql.includes("--", sql.lastIndexOf("\n", start) + 1);
    const text = comment ? { start: null } : { start, limits: [] };
    known.set(sql, text);
    return text;
  };
  return (sql, args) => {
    const offset = sql.endsWith(LIMIT_OFFSET);
    if (!offset && !sql.endsWith(LIMIT)) return { sql, args };
    const text = known.get(sql) ?? textOf(sql, offset);
    if (text.start === null) return { sql, args };
    const at = args.length - (offset ? 2 : 1);
    const limit = args[at];
    if (!Number.isSafeInteger(limit) && typeof limit !== "bigint") return { sql, args };
    if (!text.limits.includes(limit as number | bigint)) {
      if (text.limits.length >= LIMITS_PER_TEXT) return { sql, args };
      text.limits.push(limit as number | bigint);
    }
    return {
      sql: `${sql.slice(0, text.start)} LIMIT ${limit}${offset ? " OFFSET ?" : ""}`,
      args: args.toSpliced(at, 1),
    };
  };
}
