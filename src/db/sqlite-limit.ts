// SQLite (3.49, as better-sqlite3 builds it) re-prepares a statement every time a value is bound to its
// LIMIT: the planner reads the limit, so any new binding marks the plan stale (`expmask`), even the same
// value. Prisma binds the LIMIT of every findFirst, findUnique and page, so each of those reads was parsed
// and planned again on every run: 5 % of a single entry's CPU under `perf`, and 8 µs against 14 µs for an
// indexed lookup with the limit written in. OFFSET does not do this.
//
// So a statement that ends in `LIMIT ?` gets its limit written into its text: one kept statement per
// limit, and there are few (1, the page sizes; the statement cache bounds them anyway).

const TRAILING_LIMIT = /LIMIT \?( OFFSET \?)?$/;

/** The text and arguments to run: `sql`'s trailing bound LIMIT written in, when it is a whole number. */
export function withFixedLimit(sql: string, args: unknown[]): { sql: string; args: unknown[] } {
  const match = TRAILING_LIMIT.exec(sql);
  if (!match) return { sql, args };
  const at = args.length - (match[1] ? 2 : 1);
  const limit = args[at];
  if (!Number.isSafeInteger(limit) && typeof limit !== "bigint") return { sql, args };
  return {
    sql: `${sql.slice(0, match.index)}LIMIT ${limit}${match[1] ?? ""}`,
    args: args.toSpliced(at, 1),
  };
}
