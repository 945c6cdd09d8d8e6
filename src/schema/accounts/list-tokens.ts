// Listing an account's tokens (`cms token list`). Only the SHA-256 of a token and its first characters
// are stored, so a listing names each by its ID (what `cms token revoke --id` takes) and its prefix, and
// never shows, or could show, the secret.
import type { Db } from "../../db/client.ts";
import { ApiError } from "../errors.ts";

export interface TokenSummary {
  id: string;
  /** The token's first characters; empty for tokens issued before prefixes were kept. */
  prefix: string;
  scope: string;
  created_at: string;
  revoked_at: string | null;
}

/** The account's tokens, revoked ones included, oldest first. */
export async function listTokens(db: Db, accountId: string): Promise<TokenSummary[]> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: {
      tokens: {
        select: { id: true, prefix: true, scope: true, createdAt: true, revokedAt: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  if (!account) throw ApiError.notFound(`account ${accountId}`);
  return account.tokens.map((token) => ({
    id: token.id,
    prefix: token.prefix,
    scope: token.scope,
    created_at: token.createdAt.toISOString(),
    revoked_at: token.revokedAt?.toISOString() ?? null,
  }));
}
