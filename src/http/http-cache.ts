// Conditional GET for site pages and asset files (RFC 9110 §13.1.2): If-None-Match compares weakly, so
// `W/"x"` matches `"x"`, and it may list several tags or be `*`.

/** Whether an If-None-Match header names `etag` (a strong tag with its quotes). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || value === "*";
  });
}
