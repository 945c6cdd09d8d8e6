// What a template save accepts but the site will not show as written: a `{% render %}` or `{% include %}`
// naming a partial the account has no template for renders as an HTML comment and is logged
// (src/render/engine.ts). A template's answers list each such name under `warnings`, so the save that
// brings one says so. Names written as variables (`{% render entry.kind %}`) are only known when rendering.

import { keptLookup } from "../account-lookups.ts";
import type { Context } from "../context.ts";

/** `{% render 'name' %}`, `{%- include "name", … %}`: the quoted name that follows the tag's name. */
const NAMED_PARTIAL = /\{%-?\s*(?:render|include)\s*(['"])([^'"\n]*)\1/g;

/** The partials `html` names by a literal, as handles (`'/byline'` names `byline`), each once. */
export function namedPartials(html: string): string[] {
  const names = new Set<string>();
  for (const match of html.matchAll(NAMED_PARTIAL)) names.add((match[2] ?? "").replace(/^\/+/, ""));
  return [...names];
}

/** The account's template handles, read once per request and kept while its templates stay unchanged. */
const handlesByRequest = new WeakMap<object, Map<string, Promise<Set<string>>>>();

function templateHandles(ctx: Pick<Context, "db" | "keep">, accountId: string): Promise<Set<string>> {
  let byAccount = handlesByRequest.get(ctx);
  if (!byAccount) {
    byAccount = new Map();
    handlesByRequest.set(ctx, byAccount);
  }
  let handles = byAccount.get(accountId);
  if (!handles) {
    handles = keptLookup(ctx, `template-handles\u0000${accountId}`, accountId, "structure", () =>
      ctx.db.template.findMany({ where: { accountId }, select: { handle: true } }),
    ).then((rows) => new Set(rows.map((row) => row.handle)));
    byAccount.set(accountId, handles);
  }
  return handles;
}

/** One message per partial `html` names that the account lacks. */
export async function templateWarnings(
  ctx: Pick<Context, "db" | "keep">,
  accountId: string,
  html: string,
): Promise<string[]> {
  const named = namedPartials(html);
  if (named.length === 0) return [];
  const handles = await templateHandles(ctx, accountId);
  return named
    .filter((name) => !handles.has(name))
    .map((name) => `partial '${name}' not found: the page shows nothing in its place`);
}
