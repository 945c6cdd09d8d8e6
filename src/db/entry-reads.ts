// Two read paths that would otherwise grow with the size of a collection:
//
// - Counts. A list page reports its total; counting 100,000 entries reads 100,000 index entries on
//   every request. Entry counts are remembered per query for a moment (COUNT_TTL_MS) and forgotten as
//   soon as this process writes anything or a transaction of it ends (commit or rollback), so a client
//   sees its own writes at once; while a transaction is open nothing is remembered or served (a count
//   read meanwhile may miss what it is about to commit). Another process's writes (a second server on
//   the same PostgreSQL) show within COUNT_TTL_MS.
// - Deep pages. OFFSET n reads n rows before the page; with every column selected that means n table
//   rows. Past DEEP_OFFSET, the page's IDs are read first (from the covering index of the sort, without
//   touching the table), then only those rows.
import type { Db } from "./client.ts";

export const COUNT_TTL_MS = 2_000;
const MAX_COUNTS = 1_000;
export const DEEP_OFFSET = 200;

const readOperations = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
]);

export function fastEntryReads(client: Db): Db {
  /** Bumped before and after every write, so a count that overlapped one is not kept. */
  let generation = 0;
  let openTransactions = 0;
  const counts = new Map<string, { total: number; at: number }>();
  const forget = () => {
    generation++;
    counts.clear();
  };

  const extended = client.$extends({
    query: {
      // Raw statements included: only the reads above and $queryRaw (the schema's raw reads) keep counts.
      async $allOperations({ operation, args, query }) {
        if (readOperations.has(operation) || operation === "$queryRaw") return query(args);
        forget();
        try {
          return await query(args);
        } finally {
          forget();
        }
      },
      entry: {
        async count({ args, query }) {
          if (openTransactions > 0) return query(args);
          const key = JSON.stringify(args ?? {});
          const known = counts.get(key);
          if (known && Date.now() - known.at < COUNT_TTL_MS) return known.total;
          const started = generation;
          const total = await query(args);
          if (typeof total === "number" && generation === started && openTransactions === 0) {
            if (counts.size >= MAX_COUNTS) counts.clear();
            counts.set(key, { total, at: Date.now() });
          }
          return total;
        },
        async findMany({ args, query }) {
          const skip = args.skip ?? 0;
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
  });
  // Interactive transactions: counts are neither served nor kept while one is open, and all are
  // forgotten once it ends, whichever way.
  const transaction = extended.$transaction.bind(extended) as (...args: unknown[]) => Promise<unknown>;
  return new Proxy(extended, {
    get(target, property) {
      if (property !== "$transaction") {
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        openTransactions++;
        try {
          return await transaction(...args);
        } finally {
          openTransactions--;
          forget();
        }
      };
    },
  }) as unknown as Db;
}
