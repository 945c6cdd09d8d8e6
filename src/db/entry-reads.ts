// Deep pages. OFFSET n reads n rows before the page; with every column selected that means n table rows.
// Past DEEP_OFFSET, the page's IDs are read first (from the covering index of the sort, without touching the
// table), then only those rows. (A list's total, the other read that grows with a collection, is kept by
// the schema: src/schema/entries/count.ts.)
import type { QueryHooks } from "./query-hooks.ts";

export const DEEP_OFFSET = 200;

export const deepEntryPages: QueryHooks["replace"] = {
  entry: {
    async findMany(args = {}, query) {
      const skip = Number(args.skip ?? 0);
      if (skip < DEEP_OFFSET || !args.orderBy || args.cursor || args.distinct) return query(args);
      // Through `query`, so that inside a transaction both reads stay in it.
      const page = (await query({
        where: args.where,
        orderBy: args.orderBy,
        skip,
        take: args.take,
        select: { id: true },
      })) as { id: string }[];
      if (page.length === 0) return [];
      const { skip: _skip, take: _take, where, ...rest } = args;
      return query({ ...rest, where: { AND: [where ?? {}, { id: { in: page.map((row) => row.id) } }] } });
    },
  },
};
