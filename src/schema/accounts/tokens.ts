// API tokens: 32 random bytes shown once, stored as their SHA-256. Looking a token up by its hash is an
// exact index match on a value an attacker cannot steer, so no timing reveals a stored token; revoked
// tokens stop matching at once because every request reads the row.
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { newId, prefixes } from "../ids.ts";

export type TokenScope = "read" | "write";

export interface Viewer {
  accountId: string;
  scope: TokenScope;
  tokenId: string;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What `cms token list` shows of a token: enough to tell tokens apart, far too little to guess one. */
export function tokenPrefix(token: string): string {
  return token.slice(0, "cms_".length + 6);
}

export async function issueToken(db: Db, accountId: string, scope: TokenScope = "write"): Promise<string> {
  const token = `cms_${randomBytes(32).toString("base64url")}`;
  await db.apiToken.create({
    data: {
      id: newId(prefixes.token),
      accountId,
      tokenHash: hashToken(token),
      prefix: tokenPrefix(token),
      scope,
    },
  });
  return token;
}

/** Returns whether a live token was revoked. */
export async function revokeToken(db: Db, token: string): Promise<boolean> {
  const { count } = await db.apiToken.updateMany({
    where: { tokenHash: hashToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

export async function findViewer(db: Db, token: string): Promise<Viewer | null> {
  if (token.length > 200) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, accountId: true, scope: true, revokedAt: true },
  });
  if (!row || row.revokedAt) return null;
  return { accountId: row.accountId, scope: row.scope === "read" ? "read" : "write", tokenId: row.id };
}

/** Revokes by the token's ID (from `cms token list`), for a token whose secret is lost; whether a live one was. */
export async function revokeTokenById(db: Db, id: string): Promise<boolean> {
  const { count } = await db.apiToken.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}
