// What every page of a site may use besides its entry: globals by handle (with `handle`, and `title`
// their name unless a field of theirs is called `title`, as on the hosted service),
// navigation trees by handle ({title, url, children}, a linked item's url being its entry's current
// path), and the account's templates for the renderer.
// Globals, navigations and their items are read on every page but rarely written: their rows are kept
// as lookups of their tables (account-lookups.ts), ended by any write of those tables. What depends on
// which entries are visible (expanded references, linked items' urls) is read per request from them.
import type { AccountScope } from "../access.ts";
import { blueprintOf, keptLookup } from "../account-lookups.ts";
import { readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { expandValues, SITE_EXPANSION_DEPTH } from "../entries/expand.ts";
import { navigationForests, readNavigationItems } from "../navigation-items/read.ts";
import { type Forest, type ItemRow, itemUrl, type LinkedEntry } from "../navigation-items/tree.ts";
import { visible } from "./scope.ts";

export async function siteGlobals(
  ctx: Context,
  scope: AccountScope,
): Promise<Record<string, Record<string, unknown>>> {
  const { accountId } = scope;
  const globals = await keptLookup(ctx, `site globals\u0000${accountId}`, accountId, "structure", () =>
    ctx.db.global.findMany({
      where: scope,
      select: { handle: true, name: true, data: true, blueprintId: true },
    }),
  );
  const entries = await Promise.all(
    globals.map(async (global) => {
      const { fields } = await blueprintOf(ctx, accountId, global.blueprintId);
      const values = await expandValues(ctx, accountId, readFields(fields), global.data, {
        publishedOnly: true,
        depth: SITE_EXPANSION_DEPTH,
      });
      return [global.handle, { handle: global.handle, title: global.name, ...values }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

export interface MenuItem {
  title: string;
  url: string | null;
  children: MenuItem[];
}

export async function siteNavigations(
  ctx: Context,
  scope: AccountScope,
): Promise<Record<string, MenuItem[]>> {
  const { accountId } = scope;
  const kept = await keptLookup(
    ctx,
    `site navigations\u0000${accountId}`,
    accountId,
    "structure",
    async () => {
      const [navigations, items] = await Promise.all([
        ctx.db.navigation.findMany({ where: scope, select: { id: true, handle: true } }),
        readNavigationItems(ctx.db, scope),
      ]);
      return { navigations, items };
    },
  );
  const { navigations, items } = kept;
  const { forests, linked } = await navigationForests(ctx.db, scope, items, await visible(ctx));
  return Object.fromEntries(
    navigations.map((navigation) => [navigation.handle, menu(forests.get(navigation.id), null, linked)]),
  );
}

function menu(
  forest: Forest | undefined,
  parentId: string | null,
  linked: Map<string, LinkedEntry>,
): MenuItem[] {
  return (forest?.get(parentId) ?? []).map((row: ItemRow) => ({
    title: row.title,
    url: itemUrl(row, linked),
    children: menu(forest, row.id, linked),
  }));
}

export async function siteTemplates(ctx: Context, scope: AccountScope) {
  return ctx.db.template.findMany({ where: scope, select: { handle: true, kind: true, html: true } });
}
