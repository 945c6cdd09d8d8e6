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

// A string is well formed when it has no unpaired surrogate (a pair is one code point, and stays).
const unstorable = (text: string) => text.includes("\u0000") || !text.isWellFormed();

/**
 * The key path to the first string holding a NUL or an unpaired surrogate, or undefined. It runs on the
 * arguments of every query, so the path is built only once something is found.
 */
export function nulPath(value: unknown, depth = 0): string[] | undefined {
  if (typeof value === "string") return unstorable(value) ? [] : undefined;
  if (value === null || typeof value !== "object" || value instanceof Date || depth > 100) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulPath(value[index], depth + 1);
      if (found) return [String(index), ...found];
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (unstorable(key)) return [key];
    const found = nulPath((value as Record<string, unknown>)[key], depth + 1);
    if (found) return [key, ...found];
  }
  return undefined;
}

export function fieldName(path: string[]): string {
  const key = path.find((segment) => !structural.has(segment) && !/^\d+$/.test(segment)) ?? "body";
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
