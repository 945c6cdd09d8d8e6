// Paths of the site that users write (a collection's routing and index, a feed's path, an entry's routing
// override): `/`-separated segments of URL-safe characters. `.` and `..` are such characters, but a
// browser resolves those segments away, so a path holding one could never be asked for.

/** One literal segment. */
export const literalSegment = "[A-Za-z0-9._~-]+";

export const DOT_SEGMENTS = "must not contain . or ..";

export function noDotSegments(path: string): boolean {
  return !path.split("/").some((part) => part === "." || part === "..");
}
