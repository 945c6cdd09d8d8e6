// Resolving a form named in a path, inside the caller's account.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export async function findForm<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const form = await ctx.db.form.findFirst({
    ...(query ?? {}),
    where: { ...scope, ...idOrHandle(id, prefixes.form) },
  });
  if (!form) throw ApiError.notFound("Form");
  return form;
}
