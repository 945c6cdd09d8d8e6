// A preview link's token: `<account ID>.<entry ID>.<expiry, Unix seconds>.<signature>`, the signature
// being the HMAC-SHA256 of what precedes it under the installation's key (base64url). Readable on
// purpose: it holds nothing secret, only what it grants, and any change to that breaks the signature.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface PreviewClaims {
  accountId: string;
  entryId: string;
  /** Unix seconds after which the link is refused. */
  expires: number;
}

// Prefix IDs (ids.ts), a whole number of seconds, and 32 bytes of HMAC in base64url (43 characters).
const shape = /^([a-z]+_[0-9a-z]{26})\.([a-z]+_[0-9a-z]{26})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export function signPreviewToken(key: Buffer, claims: PreviewClaims): string {
  const signed = `${claims.accountId}.${claims.entryId}.${claims.expires}`;
  return `${signed}.${signature(key, signed)}`;
}

/** The claims of a token signed with `key` that has not expired at `now` (ms), else null. */
export function readPreviewToken(key: Buffer, token: string, now = Date.now()): PreviewClaims | null {
  const match = shape.exec(token);
  if (!match) return null;
  const [, accountId = "", entryId = "", expires = "", given = ""] = match;
  // The encoded strings are compared, not the decoded bytes: base64url's last character carries unused
  // bits, so two spellings decode alike and a changed character could otherwise still pass.
  const expected = signature(key, `${accountId}.${entryId}.${expires}`);
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
  const claims = { accountId, entryId, expires: Number(expires) };
  return claims.expires * 1000 > now ? claims : null;
}

function signature(key: Buffer, signed: string): string {
  // A label of its own, should the key ever sign something else too.
  return createHmac("sha256", key).update(`preview-link\n${signed}`).digest("base64url");
}
