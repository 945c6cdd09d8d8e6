// Long lists are read in pages that each start after the last row of the one before (keyset
// pagination, never OFFSET): each page costs the same however deep into the list it is, and no more
// than one page of rows is held at a time. Rows come in creation order, (createdAt, id), so that an
// import that creates them in file order gives them the same order.

export interface RowPosition {
  createdAt: Date;
  id: string;
}

/** Creation order; a fresh array each time, as Prisma wants a mutable one. */
export function creationOrder() {
  return [{ createdAt: "asc" as const }, { id: "asc" as const }];
}

/**
 * The rows after `last` in creation order. `createdAt >= ...` lets an index that holds createdAt seek to
 * the page; only rows of the very same instant are then filtered by ID.
 */
function after(last: RowPosition | undefined) {
  if (!last) return {};
  return { createdAt: { gte: last.createdAt }, NOT: { createdAt: last.createdAt, id: { lte: last.id } } };
}

export type AfterFilter = ReturnType<typeof after>;

/** Every row `read` finds, page by page of `size` rows. */
export async function* inPages<Row extends RowPosition>(
  read: (after: AfterFilter, take: number) => Promise<Row[]>,
  size: number,
): AsyncGenerator<Row[]> {
  let last: RowPosition | undefined;
  for (;;) {
    const rows = await read(after(last), size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    last = rows[rows.length - 1];
  }
}
