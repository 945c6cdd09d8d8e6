// A submission refused for its fields (422), answered to a browser without JavaScript as the hosted
// service does: the page the form was posted from, rendered again with `form.errors` per field and
// `form.values` re-filled. Only a page of this site (the Referer's host is the request's) is rendered;
// otherwise, or when that page has no such form, the caller falls back to a plain list of the problems.
import type { GraphQLSchema } from "graphql";
import { Response } from "../http/fetch-api.ts";
import type { ApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { hostName } from "../schema/site/host.ts";
import type { FormState } from "./form-drop.ts";
import { loadEntryList, loadSite } from "./site-data.ts";
import { pageNumber, pagePath, renderSitePage } from "./site-page.ts";

export async function failedSubmissionPage(
  schema: GraphQLSchema,
  request: Request,
  ctx: Context,
  state: FormState,
): Promise<Response | null> {
  const referer = request.headers.get("referer");
  if (!referer || !URL.canParse(referer)) return null;
  const from = new URL(referer);
  const own = new URL(request.url);
  if (!["http:", "https:"].includes(from.protocol) || hostName(from.host) !== hostName(own.host)) return null;
  const url = new URL(`${from.pathname}${from.search}`, own.origin);
  const site = await loadSite(schema, ctx, pagePath(url), pageNumber(url));
  if (!site?.page || !site.forms[state.handle]) return null;
  const rendered = await renderSitePage(
    site,
    url,
    pageNumber(url),
    (args) => loadEntryList(schema, ctx, args),
    state,
  )
    // A page that fails to render (logged when it is shown by GET) leaves the plain list.
    .catch(() => null);
  if (rendered?.status !== 200) return null;
  return new Response(rendered.body, {
    status: 422,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The refused fields' messages by handle, and what was posted for each. */
export function formStateOf(handle: string, error: ApiError, fields: Record<string, string>): FormState {
  const errors: Record<string, string[]> = {};
  for (const detail of error.details) {
    errors[detail.path] = [...(errors[detail.path] ?? []), detail.message];
  }
  return { handle, errors, values: { ...fields } };
}
