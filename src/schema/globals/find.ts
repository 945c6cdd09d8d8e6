// Resolving a global named in a path, inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findGlobal<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const global = await ctx.db.global.findFirst({
    ...(query ?? {}),
    where: { ...scope, ...idOrHandle(id, prefixes.global) },
  });
  if (!global) throw ApiError.notFound("Global");
  return global;
}
