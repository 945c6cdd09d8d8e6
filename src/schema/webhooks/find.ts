// Resolving a webhook named in a path, inside the caller's account (webhooks have no handle: by ID only).
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";

export async function findWebhook<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const webhook = await ctx.db.webhook.findFirst({ ...(query ?? {}), where: { ...scope, id } });
  if (!webhook) throw ApiError.notFound("Webhook");
  return webhook;
}
