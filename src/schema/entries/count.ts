// How many entries a where-clause matches: a list's total. Counting reads every matching index entry, all
// 100,000 of a large collection on every page, so a total is kept as a lookup of the account's content
// (context.ts `keep`): until the account's next write, with or without the read cache of whole answers.
// A public count's where-clause holds the request's as-of time (site/scope.ts), which its key leaves out:
// within one content generation the entries visible as of any request's time are the same ones
// (generations.ts). Kept with the lookups' budget (LOOKUP_CACHE_MB): a client that sends many different
// filters pushes other kept lookups out (least recently used first); those are read again, not wrong.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { Context, KeepOptions } from "../context.ts";

export async function countEntries(
  ctx: Pick<Context, "db" | "keep" | "asOf">,
  where: Prisma.EntryWhereInput & AccountScope,
): Promise<number> {
  const lookup: KeepOptions<number> = {
    lookup: { account: where.accountId, of: "content" },
    size: () => 64,
  };
  const asOf = await ctx.asOf();
  // The very Date the request's visibility rule holds; a filter's own dates are other objects.
  const key = JSON.stringify(where, function (this: Record<string, unknown>, name, value) {
    return this[name] === asOf ? "as of" : value;
  });
  return ctx.keep(`entry count\u0000${key}`, () => ctx.db.entry.count({ where }), lookup);
}
