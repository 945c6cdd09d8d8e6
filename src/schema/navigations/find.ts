// Resolving a navigation named in a path (`nav_` ID or handle), inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findNavigation<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const navigation = await ctx.db.navigation.findFirst({
    ...(query ?? {}),
    where: { ...scope, ...idOrHandle(id, prefixes.navigation) },
  });
  if (!navigation) throw ApiError.notFound("Navigation");
  return navigation;
}
