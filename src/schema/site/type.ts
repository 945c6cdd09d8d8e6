// `site`: the public site named by the request's Host, read-only and published-only. It serves the
// renderer, which executes it in-process; it is not part of the public /graphql schema.
import { keptLookup } from "../account-lookups.ts";
import { builder } from "../builder.ts";
import { siteGlobals, siteNavigations, siteTemplates } from "./context-data.ts";
import { entryList } from "./entry-list.ts";
import { siteForms } from "./forms.ts";
import { pageAt } from "./page-at.ts";
import type { QueryCondition } from "./query-filter.ts";
import { feedAt, sitemapUrls } from "./sitemap.ts";
import { type SubmissionResult, submitForm } from "./submit.ts";

interface SiteRoot {
  id: string;
  name: string;
  domain: string;
  /** Set when the site was reached through `sitePreview`, whose caller may see unpublished pages. */
  preview?: true;
}

export const SiteRef = builder.objectRef<SiteRoot>("Site").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    domain: t.exposeString("domain"),
    name: t.exposeString("name"),
    page: t.field({
      type: "JSON",
      nullable: true,
      description:
        "What `path` shows: {kind: entry, template, layout, collection, entry} for a published entry, " +
        "{kind: index, template, layout, collection, path, entries, pagination} for an index page, else null; " +
        "with current_page (from `?page=N` or a trailing `/page/N`) and base_path (the path without it).",
      args: { path: t.arg.string({ required: true }), page: t.arg.int({ defaultValue: 1 }) },
      resolve: (site, args, ctx) =>
        pageAt(ctx, { accountId: site.id }, args.path, Math.max(1, args.page ?? 1)),
    }),
    entries: t.field({
      type: "JSON",
      nullable: true,
      description:
        "A page of a collection's published entries, for the `query` and `paginate` tags: " +
        "{entries, total, pagination}; per_page 1 to 100 (default 20); order_by position, title, handle, " +
        "published_at, created_at or updated_at, else site order; null for an unknown collection.",
      args: {
        collection: t.arg.string({ required: true }),
        order_by: t.arg.string(),
        order_dir: t.arg.string(),
        per_page: t.arg.int(),
        page: t.arg.int(),
        path: t.arg.string({ description: "The page's path, base of the pagination URLs." }),
        filter: t.arg({ type: "JSON", description: "[{path, op, value}]: the query tag's conditions." }),
      },
      resolve: (site, args, ctx) =>
        entryList(
          ctx,
          { accountId: site.id },
          {
            ...args,
            filter: Array.isArray(args.filter) ? (args.filter as QueryCondition[]) : null,
          },
        ),
    }),
    globals: t.field({
      type: "JSON",
      resolve: (site, _args, ctx) => siteGlobals(ctx, { accountId: site.id }),
    }),
    navigations: t.field({
      type: "JSON",
      resolve: (site, _args, ctx) => siteNavigations(ctx, { accountId: site.id }),
    }),
    sitemap: t.field({
      type: "JSON",
      description: "[{path, updated_at}] of published sitemap entries and index pages.",
      resolve: (site, _args, ctx) => sitemapUrls(ctx, { accountId: site.id }),
    }),
    feed: t.field({
      type: "JSON",
      nullable: true,
      description: "The RSS feed of the feed-enabled collection whose feed_path is `path`.",
      args: { path: t.arg.string({ required: true }) },
      resolve: (site, args, ctx) => feedAt(ctx, { accountId: site.id }, args.path),
    }),
    // Kept as lookups of their tables (read-cache.ts): a stream of new entries ends neither.
    forms: t.field({
      type: "JSON",
      resolve: (site, _args, ctx) =>
        keptLookup(ctx, `site forms\u0000${site.id}`, site.id, "structure", () =>
          siteForms(ctx, { accountId: site.id }),
        ),
    }),
    templates: t.field({
      type: "JSON",
      resolve: (site, _args, ctx) =>
        keptLookup(ctx, `site templates\u0000${site.id}`, site.id, "structure", () =>
          siteTemplates(ctx, { accountId: site.id }),
        ),
    }),
  }),
});

builder.queryField("site", (t) =>
  t.field({
    type: SiteRef,
    nullable: true,
    description: "The site of the account whose domain is the request's Host.",
    resolve: (_root, _args, ctx) => ctx.site(),
  }),
);

const SubmissionRef = builder.objectRef<SubmissionResult>("FormSubmission").implement({
  fields: (t) => ({
    saved: t.exposeBoolean("saved", {
      description: "False for honeypot and spam submissions, answered as successes.",
    }),
    message: t.exposeString("message"),
    redirect_url: t.exposeString("redirect_url", { nullable: true }),
  }),
});

builder.mutationField("siteFormSubmit", (t) =>
  t.field({
    type: SubmissionRef,
    description: "A visitor's submission of the form `handle` on the site named by the Host.",
    args: {
      handle: t.arg.string({ required: true }),
      fields: t.arg({ type: "JSON", required: true }),
      honeypot: t.arg.string(),
      redirect_url: t.arg.string({ description: "Followed only when it is a path on this site." }),
      success_message: t.arg.string(),
      referer: t.arg.string({ description: "The page posted from; followed only when it is on this site." }),
    },
    resolve: (_root, args, ctx) =>
      submitForm(ctx, args.handle, (args.fields ?? {}) as Record<string, unknown>, args.honeypot, {
        redirect_url: args.redirect_url,
        success_message: args.success_message,
        referer: args.referer,
      }),
  }),
);
