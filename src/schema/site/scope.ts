// The public site's access rule: the account named by the Host (ctx.site(), the root of every site
// query, whose ID is the account filter) and, among entries, only the visible ones: published, and not
// scheduled for later (a `published_at` after now). A preview (preview.ts) names the account by a token
// allowed to read it instead, and may show any entry. Every public read of entries (the site, the
// content queries, navigation links, expanded references) goes through this rule.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";

/**
 * Entries a visitor may see as of `asOf`. It holds an OR: spread it into a where-clause without one of
 * its own (or combine both under AND).
 */
export function visibleAt(asOf: Date) {
  return {
    published: true,
    OR: [{ publishedAt: null }, { publishedAt: { lte: asOf } }],
  } satisfies Prisma.EntryWhereInput;
}

/** Entries a visitor may see now: as of the moment the request read its generations (generations.ts). */
export async function visible(ctx: Pick<Context, "asOf">): Promise<ReturnType<typeof visibleAt>> {
  return visibleAt(await ctx.asOf());
}

/** The same rule for an entry already read (a referenced entry being expanded). */
export function isVisibleAt(entry: { published: boolean; publishedAt: Date | null }, asOf: Date): boolean {
  return entry.published && (entry.publishedAt === null || entry.publishedAt <= asOf);
}
