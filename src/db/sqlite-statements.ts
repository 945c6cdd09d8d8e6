// The statements kept per SQL text for one SQLite connection (sqlite-adapter.ts `reuseStatements`), with a
// trailing bound LIMIT written into the text where it may be.
//
// SQLite (3.49, as better-sqlite3 builds it) prepares a statement anew every time a value is bound to its
// LIMIT: the planner may use a limit that is an integer, so any binding marks the plan stale, even the
// same value (better-sqlite3 binds JS numbers as REAL, which the planner then does not even use). Prisma
// binds the LIMIT of every findFirst, findUnique and page, so each of those reads was parsed and planned
// again on every run: 5 % of a single entry's CPU under `perf`; an indexed lookup took 14 µs with its limit
// bound and 8 µs with it written in. OFFSET does not do this.
//
// So the limit of a statement ending in `LIMIT ?` is written into its text: one kept statement per limit,
// kept with the text as Prisma sends it (one lookup a run).
// Written in, the planner does read it (a fixed limit may favour the index that gives the order); the 34
// statements with a limit that the bench's workloads send planned the same either way (docs/performance.md).
// Clients choose some limits (per_page, a connection's first), so each text gets at most
// LIMITS_PER_TEXT written in: the first ones run, usually an app's few page sizes; others stay bound.

import { LRUCache } from "lru-cache";

const LIMIT = " LIMIT ?";
const LIMIT_OFFSET = " LIMIT ? OFFSET ?";
export const LIMITS_PER_TEXT = 4;

/** The statement to run for a text and its arguments, and the arguments to run it with. */
export type StatementFor<S> = (sql: string, args: unknown[]) => { statement: S; args: unknown[] };

/** A text as sent, with its statements. */
interface Text<S> {
  /** Where its trailing bound LIMIT clause starts; null without one (or with one in a comment). */
  start: number | null;
  offset: boolean;
  /** The text as sent, prepared when first run so: without a limit written in. */
  asSent?: S;
  /** Prepared with a limit written in, by limit as text (1 and 1n are one limit). */
  limited: Map<string, S>;
}

/**
 * For one connection: the statements of the `texts` most recently run texts, each prepared once
 * (`prepare`), with a trailing bound LIMIT written in where it may be.
 */
export function statementsByText<S>(prepare: (sql: string) => S, texts: number): StatementFor<S> {
  const known = new LRUCache<string, Text<S>>({ max: texts });
  // Looked at once a text: whether it ends in a LIMIT clause, and not in a comment (`... -- LIMIT ?`).
  const textOf = (sql: string) => {
    const offset = sql.endsWith(LIMIT_OFFSET);
    let start: number | null = null;
    if (offset || sql.endsWith(LIMIT)) {
      const clause = sql.length - (offset ? LIMIT_OFFSET : LIMIT).length;
      if (!sql.includes("--", sql.lastIndexOf("\n", clause) + 1)) start = clause;
    }
    const text: Text<S> = { start, offset, limited: new Map() };
    known.set(sql, text);
    return text;
  };
  return (sql, args) => {
    const text = known.get(sql) ?? textOf(sql);
    if (text.start !== null) {
      const at = args.length - (text.offset ? 2 : 1);
      const limit = args[at];
      if (Number.isSafeInteger(limit) || typeof limit === "bigint") {
        const written = String(limit);
        let statement = text.limited.get(written);
        if (statement === undefined && text.limited.size < LIMITS_PER_TEXT) {
          statement = prepare(
            `${sql.slice(0, text.start)} LIMIT ${written}${text.offset ? " OFFSET ?" : ""}`,
          );
          text.limited.set(written, statement);
        }
        if (statement !== undefined) return { statement, args: args.toSpliced(at, 1) };
      }
    }
    text.asSent ??= prepare(sql);
    return { statement: text.asSent, args };
  };
}
