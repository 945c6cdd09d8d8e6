// Two read paths that would otherwise grow with the size of a collection:
//
// - Counts. A list page reports its total; counting 100,000 entries reads 100,000 index entries on
//   every request. Entry counts are remembered per query (the MAX_COUNTS most recently used) for as long as the data generation
//   (generation.ts) stays the same: any commit, by this process or another, ends them. While a
//   transaction of this process is open nothing is remembered or served (a count read inside it sees
//   rows it may still roll back). Not when each request's statements are counted (query-count.ts):
//   another process's commit would decide whether a count is read.
// - Deep pages. OFFSET n reads n rows before the page; with every column selected that means n table
//   rows. Past DEEP_OFFSET, the page's IDs are read first (from the covering index of the sort, without
//   touching the table), then only those rows.
import { LRUCache } from "lru-cache";
import type { Generation } from "./generation.ts";
import type { QueryHooks } from "./query-hooks.ts";

const MAX_COUNTS = 1_000;
export const DEEP_OFFSET = 200;

type EntryReads = Pick<QueryHooks, "replace" | "transaction">;

export function fastEntryReads(generation: Generation, { keepCounts = true } = {}): EntryReads {
  // Interactive transactions: counts are neither served nor kept while one is open.
  let openTransactions = 0;
  const counts = new LRUCache<string, { total: number; generation: string }>({ max: MAX_COUNTS });
  return {
    replace: {
      entry: {
        async count(args, query) {
          if (!keepCounts || openTransactions > 0) return query(args);
          const key = JSON.stringify(args ?? {});
          // Read before counting: the total kept is at least as new as the generation it is kept under.
          const current = await generation();
          const known = counts.get(key);
          if (known?.generation === current) return known.total;
          const total = await query(args);
          if (typeof total === "number" && openTransactions === 0)
            counts.set(key, { total, generation: current });
          return total;
        },
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
    },
    async transaction(run) {
      openTransactions++;
      try {
        return await run();
      } finally {
        openTransactions--;
      }
    },
  };
}
