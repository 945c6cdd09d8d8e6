// PostgreSQL cannot store NUL characters in text, where SQLite can: refusing them before any query keeps
// both databases alike and turns what would be a driver error into a clear client error on the field.
// Unpaired UTF-16 surrogates (a JSON "\ud800" escape) are refused the same way: they are no Unicode text,
// and Prisma's query encoding fails on them with an internal error on both databases.
export class UnstorableTextError extends Error {
  /** The API name of the field that held the text, e.g. `root_routing` or a blueprint field's handle. */
  readonly field: string;

  constructor(field: string) {
    super("must not contain NUL (\\u0000) characters or unpaired surrogates (\\ud800-\\udfff)");
    this.field = field;
  }
}

/** Prisma argument keys that are structure, not fields (`data`, `where`, filters, the Json column). */
const structural = new Set([
  "data",
  "where",
  "create",
  "update",
  "AND",
  "OR",
  "NOT",
  "in",
  "notIn",
  "equals",
  "set",
  "not",
]);

// With the `u` flag a surrogate pair is one code point: only unpaired surrogates match \p{Cs}.
const unstorable = (text: string) => text.includes("\u0000") || /\p{Cs}/u.test(text);

/** The key path to the first string holding a NUL or an unpaired surrogate, or undefined. */
export function nulPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "string") return unstorable(value) ? path : undefined;
  if (value === null || typeof value !== "object" || value instanceof Date || path.length > 100)
    return undefined;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (unstorable(key)) return [...path, key];
    const found = nulPath(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export function fieldName(path: string[]): string {
  const key = path.find((segment) => !structural.has(segment) && !/^\d+$/.test(segment)) ?? "body";
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
