// Conditional GET (RFC 9110 §13.1.2) for the validators' step, site pages and asset files: If-None-Match
// compares weakly, so `W/"x"` matches `"x"`, and it may list several tags or be `*`.

/**
 * Whether an If-None-Match header names `etag` (a strong tag with its quotes). `star`: whether `*`
 * counts, which it does only once the answer is known to exist.
 */
export function matchesIfNoneMatch(header: string | null, etag: string, star = true): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || (star && value === "*");
  });
}
