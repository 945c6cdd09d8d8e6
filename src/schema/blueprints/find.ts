// Resolving a blueprint named in a path, inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findBlueprint<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const blueprint = await ctx.db.blueprint.findFirst({
    ...(query ?? {}),
    where: { ...scope, ...idOrHandle(id, prefixes.blueprint) },
  });
  if (!blueprint) throw ApiError.notFound("Blueprint");
  return blueprint;
}
