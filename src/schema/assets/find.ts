// Resolving an asset named in a path, inside the caller's account. Assets have no handle: the `:id` is
// the `acass_` ID, and anything else is not found.
import type { ArgBuilder } from "@pothos/core";
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isIdOf, prefixes } from "../ids.ts";

export async function findAsset<Query extends object>(
  ctx: Context,
  scope: AccountScope,
  id: string,
  query?: Query,
) {
  const asset = isIdOf(id, prefixes.asset)
    ? await ctx.db.asset.findFirst({ ...(query ?? {}), where: { ...scope, id } })
    : null;
  if (!asset) throw ApiError.notFound("Asset");
  return asset;
}

// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
export const assetIdArg = (arg: ArgBuilder<any>) =>
  arg.id({ required: true, description: "The asset's prefix ID (acass_...)." });
