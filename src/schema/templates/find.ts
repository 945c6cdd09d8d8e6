// Resolving a template named in a path, inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findTemplate<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const template = await ctx.db.template.findFirst({
    ...(query ?? {}),
    where: { ...scope, ...idOrHandle(id, prefixes.template) },
  });
  if (!template) throw ApiError.notFound("Template");
  return template;
}
