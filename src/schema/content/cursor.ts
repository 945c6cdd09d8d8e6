// Opaque cursors for forward pagination: base64url of JSON {s: the sort signature, v: the entry's values
// of the sort keys}. The next page starts after that position (keyset pagination), so entries added or
// removed meanwhile neither repeat nor skip entries; a cursor from another sort order is refused.
import type { Prisma } from "../../generated/sqlite/client.ts";
import { ApiError } from "../errors.ts";
import type { SortKey } from "./order.ts";

type Where = Prisma.EntryWhereInput;
type CursorValue = string | number | null;

const signature = (keys: SortKey[]) => keys.map((key) => `${key.name}:${key.direction}`).join(",");

export function encodeCursor(keys: SortKey[], row: Record<string, unknown>): string {
  const values = keys.map(({ field }) => {
    const value = row[field.column];
    return value instanceof Date ? value.toISOString() : ((value ?? null) as CursorValue);
  });
  return Buffer.from(JSON.stringify({ s: signature(keys), v: values })).toString("base64url");
}

/** The where-clause of the entries after the cursor in this order. */
export function afterCursor(keys: SortKey[], cursor: string): Where {
  const values = decode(keys, cursor);
  const branches: Where[] = [];
  keys.forEach((key, index) => {
    const value = values[index] ?? null;
    // Nulls come last: after a null there are only other nulls, which the next key tells apart.
    if (value === null) return;
    const equalBefore = keys
      .slice(0, index)
      .map((before, at) => ({ [before.field.column]: values[at] ?? null }));
    const beyond: Where = { [key.field.column]: { [key.direction === "asc" ? "gt" : "lt"]: value } };
    const after = key.field.nullable ? { OR: [beyond, { [key.field.column]: null }] } : beyond;
    branches.push({ AND: [...equalBefore, after] });
  });
  return { OR: branches };
}

function decode(keys: SortKey[], cursor: string): (string | number | Date | null)[] {
  const refuse = () => ApiError.invalid("after", "is not a cursor of this query's sort order");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  const { s, v } = (parsed ?? {}) as { s?: unknown; v?: unknown };
  if (s !== signature(keys) || !Array.isArray(v) || v.length !== keys.length) throw refuse();
  return keys.map(({ field }, index) => {
    const value: unknown = v[index];
    if (value === null && field.nullable) return null;
    if (field.kind === "int" && Number.isSafeInteger(value)) return value as number;
    if (field.kind === "date" && typeof value === "string" && !Number.isNaN(Date.parse(value)))
      return new Date(value);
    if ((field.kind === "string" || field.kind === "id") && typeof value === "string") return value;
    throw refuse();
  });
}
