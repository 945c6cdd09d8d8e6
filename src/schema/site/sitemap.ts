// What a site lists for crawlers and feed readers: published entries marked for the sitemap plus index
// pages, and per feed-enabled collection its newest published entries.
import type { AccountScope } from "../access.ts";
import { keptLookup } from "../account-lookups.ts";
import type { Context } from "../context.ts";
import { publishedAtOrder } from "./entries.ts";
import { visible } from "./scope.ts";

export interface SitemapUrl {
  path: string;
  updated_at: string;
}

/** At most this many URLs, the sitemap protocol's own limit for one file. */
const SITEMAP_LIMIT = 50_000;

export async function sitemapUrls(ctx: Context, scope: AccountScope): Promise<SitemapUrl[]> {
  const shown = await visible(ctx);
  const [entries, indexes] = await Promise.all([
    ctx.db.entry.findMany({
      where: { ...scope, ...shown, includeInSitemap: true },
      select: { contentPath: true, updatedAt: true },
      orderBy: { contentPath: "asc" },
      take: SITEMAP_LIMIT,
    }),
    ctx.db.collection.findMany({
      where: { ...scope, indexRouting: { not: null }, indexTemplateHandle: { not: null } },
      select: { indexRouting: true, updatedAt: true },
    }),
  ]);
  return [
    ...indexes.map((index) => ({
      path: `/${(index.indexRouting ?? "").replace(/^\/+|\/+$/g, "")}`,
      updated_at: index.updatedAt.toISOString(),
    })),
    ...entries.map((entry) => ({ path: entry.contentPath, updated_at: entry.updatedAt.toISOString() })),
  ];
}

export interface Feed {
  title: string;
  description: string;
  path: string;
  items: { title: string; path: string; published_at: string; id: string }[];
}

/**
 * The RSS feed served at `path`, if a feed-enabled collection has that feed_path. Every page asks (any
 * path may be a feed's), so the feed settings are kept as a lookup of the account's collections; the
 * feed's entries are read when there is one.
 */
export async function feedAt(ctx: Context, scope: AccountScope, path: string): Promise<Feed | null> {
  const wanted = path.replace(/^\/+/, "");
  const { accountId } = scope;
  const collections = await keptLookup(ctx, `site feeds\u0000${accountId}`, accountId, "structure", () =>
    ctx.db.collection.findMany({
      where: { ...scope, feedEnabled: true, feedPath: { not: null } },
      select: {
        id: true,
        name: true,
        feedPath: true,
        feedTitle: true,
        feedDescription: true,
        feedLimit: true,
      },
    }),
  );
  const collection = collections.find(
    (candidate) => (candidate.feedPath ?? "").replace(/^\/+/, "") === wanted,
  );
  if (!collection) return null;
  const entries = await ctx.db.entry.findMany({
    where: { ...scope, ...(await visible(ctx)), collectionId: collection.id },
    orderBy: [...publishedAtOrder("desc"), { createdAt: "desc" }],
    take: collection.feedLimit,
    select: { id: true, title: true, contentPath: true, publishedAt: true, createdAt: true },
  });
  return {
    title: collection.feedTitle ?? collection.name,
    description: collection.feedDescription ?? "",
    path: `/${wanted}`,
    items: entries.map((entry) => ({
      id: entry.id,
      title: entry.title,
      path: entry.contentPath,
      published_at: (entry.publishedAt ?? entry.createdAt).toISOString(),
    })),
  };
}
