// Optimistic concurrency for editors: a write that sends If-Match goes ahead only while the tag a GET of
// the resource would carry now is one it names (`*`: any; the write itself answers 404 for a resource
// that does not exist). A stale tag is a 412 before the write runs, so it changes nothing. The check
// and the write are not one transaction: a write committed between the two is not seen by the check.
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type ReadShape, readTag } from "./tag.ts";

export const STALE_IF_MATCH = {
  path: "if_match",
  message: "is not the resource's current ETag: it (or its account) changed since it was read; read it again",
};

/** Throws the 412 unless `ifMatch` (the header as sent, or null: no condition) names `read`'s tag now. */
export async function assertCurrent(ctx: Context, ifMatch: string | null, read: ReadShape): Promise<void> {
  if (ifMatch === null) return;
  const named = ifMatch.split(",").map((tag) => tag.trim());
  if (named.includes("*")) return;
  const current = await readTag(ctx, read);
  // Strong comparison (RFC 9110 §13.1.1): a weak tag never matches.
  if (current && named.includes(current)) return;
  throw new ApiError(412, "Precondition failed", [STALE_IF_MATCH]);
}
