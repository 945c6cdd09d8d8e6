// What a path of the site shows, and which page of its lists: `<path>?page=N` and `<path>/page/N` (the
// hosted service's page URLs) both name page N of the page at `<path>`, be it a collection's index page
// or an entry whose template paginates a list (`{% paginate %}`, `{% query %}`).
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { type EntryPage, entryPageAt } from "./entries.ts";
import { type IndexPage, indexAt } from "./index-page.ts";
import { withoutTrailingSlash } from "./trailing-slash.ts";

/** The page at a path, with the number of the page of its lists and the path without `/page/N`. */
export type PageAt = (EntryPage | IndexPage) & { current_page: number; base_path: string };

const PAGED = /^(.*)\/page\/(\d{1,6})\/?$/;

export { withoutTrailingSlash } from "./trailing-slash.ts";

export async function pageAt(
  ctx: Context,
  scope: AccountScope,
  requested: string,
  page: number,
): Promise<PageAt | null> {
  const path = withoutTrailingSlash(requested);
  const entry = await entryPageAt(ctx, scope, path);
  if (entry) return { ...entry, current_page: page, base_path: path };
  const paged = PAGED.exec(path);
  if (!paged) {
    const index = await indexAt(ctx, scope, path, page);
    return index && { ...index, current_page: page, base_path: path };
  }
  const base = paged[1] || "/";
  const number = Number(paged[2]);
  // Pages count from 1: `/blog/page/0` names no page.
  if (number < 1) return null;
  const index = await indexAt(ctx, scope, base, number);
  if (index) return { ...index, current_page: number, base_path: base };
  const paginated = await entryPageAt(ctx, scope, base);
  return paginated && { ...paginated, current_page: number, base_path: base };
}
