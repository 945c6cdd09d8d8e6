// Tenant isolation in one place: every account-scoped operation starts from the where-filter returned
// here and merges it into each query it makes, so no resolver can reach another account's rows.
import type { Context } from "./context.ts";
import { ApiError } from "./errors.ts";

export interface AccountScope {
  accountId: string;
}

export type Access = "read" | "write";

/**
 * 401 without a valid token; 403 when the token belongs to another account than the path's, or when a
 * read-scoped token asks to write.
 */
export async function accountScope(
  ctx: Context,
  accountId: string,
  access: Access = "read",
): Promise<AccountScope> {
  const viewer = await ctx.viewer();
  if (!viewer) throw new ApiError(401, "Missing or invalid bearer token");
  if (viewer.accountId !== accountId) throw new ApiError(403, "This token is not valid for this account");
  if (access === "write" && viewer.scope !== "write") throw new ApiError(403, "This token may only read");
  return { accountId };
}
