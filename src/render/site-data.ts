// The renderer's data comes from the schema: one in-process GraphQL execution per page, of `site` (the
// public site, named by the Host) here, or of `sitePreview` (preview-data.ts). Both read the same fields
// of `Site`, written once in the fragments below.
import { type GraphQLSchema, parse } from "graphql";
import { compiledExecute } from "../schema/compiled-execute.ts";
import type { Context } from "../schema/index.ts";
import type { EntryList, EntryListArgs } from "../schema/site/entry-list.ts";

export type { EntryList, EntryListArgs };

/** What a page render reads of its site besides the page itself. */
export const siteFields = /* GraphQL */ `
  fragment SiteFields on Site {
    id
    domain
    name
    globals
    navigations
    templates
    forms
  }
`;

/** The `query` and `paginate` tags' list, with the variables of an entries operation. */
export const siteEntries = /* GraphQL */ `
  fragment SiteEntries on Site {
    entries(
      collection: $collection
      order_by: $order_by
      order_dir: $order_dir
      per_page: $per_page
      page: $page
      path: $path
      filter: $filter
    )
  }
`;

/** The variable definitions `SiteEntries` uses. */
export const siteEntriesVariables =
  "$collection: String!, $order_by: String, $order_dir: String, $per_page: Int, $page: Int, $path: String, $filter: JSON";

const pageQuery = parse(/* GraphQL */ `
  query SitePage($path: String!, $page: Int, $sitemap: Boolean!) {
    site {
      ...SiteFields
      page(path: $path, page: $page)
      feed(path: $path)
      sitemap @include(if: $sitemap)
    }
  }
  ${siteFields}
`);

export interface TemplateSource {
  handle: string;
  kind: string;
  html: string;
}

export interface SitePage {
  kind: "entry" | "index";
  template: string;
  layout: string;
  collection: { handle: string; name: string; schema_type: string | null };
  entry?: Record<string, unknown>;
  entries?: Record<string, unknown>[];
  pagination?: Record<string, unknown>;
  path?: string;
  /** The page of the path's lists: its `?page=N` or trailing `/page/N` (absent from previews). */
  current_page?: number;
  /** The path without a trailing `/page/N`: the base of page URLs. */
  base_path?: string;
}

export interface Feed {
  title: string;
  description: string;
  path: string;
  items: { id: string; title: string; path: string; published_at: string }[];
}

export interface SiteData {
  id: string;
  domain: string;
  name: string;
  page: SitePage | null;
  feed: Feed | null;
  sitemap?: { path: string; updated_at: string }[];
  globals: Record<string, Record<string, unknown>>;
  navigations: Record<string, unknown[]>;
  templates: TemplateSource[];
  forms: Record<string, SiteForm>;
}

export interface SiteForm {
  handle: string;
  title: string;
  collection: string;
  blueprint: string;
  fields: Record<string, unknown>[];
  honeypot_enabled: boolean;
  redirect_url: string | null;
  success_message: string | null;
}

/** The site for the request's Host, or null when no account has that domain. */
export async function loadSite(
  schema: GraphQLSchema,
  ctx: Context,
  path: string,
  page: number,
): Promise<SiteData | null> {
  const result = await compiledExecute({
    schema,
    document: pageQuery,
    contextValue: ctx,
    variableValues: { path, page, sitemap: path === "/sitemap.xml" },
  });
  if (result.errors?.length) throw result.errors[0];
  return (result.data?.site as SiteData | null) ?? null;
}

const entriesQuery = parse(/* GraphQL */ `
  query SiteEntries(${siteEntriesVariables}) {
    site {
      ...SiteEntries
    }
  }
  ${siteEntries}
`);

/** A page of a collection's published entries (the `query` and `paginate` tags); null when unknown. */
export async function loadEntryList(
  schema: GraphQLSchema,
  ctx: Context,
  args: EntryListArgs,
): Promise<EntryList | null> {
  const result = await compiledExecute({
    schema,
    document: entriesQuery,
    contextValue: ctx,
    variableValues: { ...args },
  });
  if (result.errors?.length) throw result.errors[0];
  const site = result.data?.site as { entries: EntryList | null } | null | undefined;
  return site?.entries ?? null;
}
