// A preview's data: the same fields as the public site's (site-data.ts), read through `sitePreview`,
// which names the site by account and checks the caller's token for it, instead of the Host's `site`.
// An entry's preview reads `entryPage` (any entry, drafts included) under the name `page`, so the
// renderer gets the very SiteData shape the public site gets.
import { type GraphQLSchema, parse } from "graphql";
import { compiledExecute } from "../schema/compiled-execute.ts";
import type { Context } from "../schema/index.ts";
import {
  type EntryList,
  type EntryListArgs,
  type SiteData,
  siteEntries,
  siteEntriesVariables,
  siteFields,
} from "./site-data.ts";

/** A page of the site by path (what the public site shows there), or one entry's page, published or not. */
export type PreviewTarget = { path: string } | { collection: string; handle: string };

const pathQuery = parse(/* GraphQL */ `
  query PreviewPath($account_id: ID!, $path: String!, $page: Int) {
    sitePreview(account_id: $account_id) {
      ...SiteFields
      page(path: $path, page: $page)
    }
  }
  ${siteFields}
`);

const entryQuery = parse(/* GraphQL */ `
  query PreviewEntry($account_id: ID!, $collection: String!, $handle: String!) {
    sitePreview(account_id: $account_id) {
      ...SiteFields
      page: entryPage(collection: $collection, handle: $handle)
    }
  }
  ${siteFields}
`);

const entriesQuery = parse(/* GraphQL */ `
  query PreviewEntries($account_id: ID!, ${siteEntriesVariables}) {
    sitePreview(account_id: $account_id) {
      ...SiteEntries
    }
  }
  ${siteEntries}
`);

/**
 * The account's site with the page `target` names (null when none: the 404 page), or null when there
 * is no such account. `path` is already decoded, `page` the `?page=N` that came with it.
 */
export async function loadPreviewSite(
  schema: GraphQLSchema,
  ctx: Context,
  accountId: string,
  target: { path: string; page?: number } | PreviewTarget,
): Promise<SiteData | null> {
  const result = await compiledExecute({
    schema,
    document: "path" in target ? pathQuery : entryQuery,
    contextValue: ctx,
    variableValues: { account_id: accountId, ...target },
  });
  if (result.errors?.length) throw result.errors[0];
  return (result.data?.sitePreview as SiteData | null) ?? null;
}

/** A page of a collection's published entries for the preview's `query` and `paginate` tags. */
export async function loadPreviewEntryList(
  schema: GraphQLSchema,
  ctx: Context,
  accountId: string,
  args: EntryListArgs,
): Promise<EntryList | null> {
  const result = await compiledExecute({
    schema,
    document: entriesQuery,
    contextValue: ctx,
    variableValues: { account_id: accountId, ...args },
  });
  if (result.errors?.length) throw result.errors[0];
  const site = result.data?.sitePreview as { entries: EntryList | null } | null | undefined;
  return site?.entries ?? null;
}
