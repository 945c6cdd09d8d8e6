// PostgreSQL cannot store NUL characters in text, where SQLite can: refusing them before any query keeps
// both databases alike and turns what would be a driver error into a clear client error on the field.
export class UnstorableTextError extends Error {
  /** The API name of the field that held the text, e.g. `root_routing` or a blueprint field's handle. */
  readonly field: string;

  constructor(field: string) {
    super("must not contain NUL (\\u0000) characters");
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

/** The key path to the first string holding a NUL, or undefined. */
export function nulPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object" || value instanceof Date || path.length > 100)
    return undefined;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (key.includes("\u0000")) return [...path, key];
    const found = nulPath(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export function fieldName(path: string[]): string {
  const key = path.find((segment) => !structural.has(segment) && !/^\d+$/.test(segment)) ?? "body";
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
