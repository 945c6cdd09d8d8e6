// A write's answer often names rows its resolver already holds (a new entry's collection and blueprint).
// Such a relation is left out of the Prisma query and put on the written row instead, but only when the
// answer's selection (Pothos' `queryFromInfo`) asks for nothing the held row lacks: its own columns, no
// relations of its own. Reading them back would cost a query each.

/** A Prisma selection: `{ select }`, `{ include }` or neither (every column). */
export type Selection = { select?: Record<string, unknown> } | { include?: Record<string, unknown> };

type Row = object;

/** `query` without the relations `held` answers, and how to put them on the row it returns. */
export function withHeldRelations<Query extends Selection>(
  query: Query,
  held: Record<string, Row>,
): { query: Query; attach<T extends object>(row: T): T } {
  const relations = "select" in query ? query.select : "include" in query ? query.include : undefined;
  if (!relations) return { query, attach: (row) => row };
  const rest: Record<string, unknown> = { ...relations };
  const attached: Record<string, Row> = {};
  for (const [name, row] of Object.entries(held)) {
    if (name in rest && answers(rest[name], row)) {
      attached[name] = row;
      delete rest[name];
    }
  }
  const key = "select" in query ? "select" : "include";
  // A select of nothing is refused by Prisma: then the relations are read back after all.
  if (key === "select" && Object.keys(rest).length === 0) return { query, attach: (row) => row };
  return {
    query: { ...query, [key]: rest },
    attach: (row) => ({ ...row, ...attached }),
  };
}

/** Whether `row` holds everything `selection` (`true` or `{ select: { column: true } }`) asks for. */
function answers(selection: unknown, row: Row): boolean {
  if (selection === true) return false; // every column: the held row may be a partial one
  const columns = (selection as { select?: Record<string, unknown> } | null)?.select;
  if (!columns || Object.keys(selection as object).length !== 1) return false;
  return Object.entries(columns).every(
    ([column, wanted]) => wanted === true && (row as Record<string, unknown>)[column] !== undefined,
  );
}
