// How many entries a where-clause matches: a list's total. Counting reads every matching index entry, all
// 100,000 of a large collection on every page, so a total is kept as a lookup (context.ts `keep`) until
// entries or references of its account change, here or in another process: another account's writes
// leave it standing. A public count's where-clause holds its as-of time (site/scope.ts), part of its key,
// so each schedule epoch counts anew (though only accounts with entries come due need to). Kept with the lookups' budget (LOOKUP_CACHE_MB), even with the read cache
// off, and read through the request's own data generation. A client that sends many different filters
// pushes other kept lookups out (least recently used first): those are read again, not wrong.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { Context, KeepOptions } from "../context.ts";

/** The tables a count's where-clause reads: the entries, and the references a content filter names. */
const COUNTED_TABLES = ["Entry", "EntryReference"] as const;

export function countEntries(
  ctx: Pick<Context, "db" | "keep">,
  where: Prisma.EntryWhereInput & AccountScope,
): Promise<number> {
  const lookup: KeepOptions<number> = {
    tables: COUNTED_TABLES,
    accounts: () => [where.accountId],
    size: () => 64,
  };
  return ctx.keep(`entry count\u0000${JSON.stringify(where)}`, () => ctx.db.entry.count({ where }), lookup);
}
