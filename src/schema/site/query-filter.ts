// The `{% query %}` tag's `filter: {fields: [{path, op, value}]}` (the hosted service's syntax) as the
// content queries' filters (content/where.ts): `path` a field handle or system field, `op` one of eq, ne,
// contains, starts_with, ends_with (and this CMS's in, lt, lte, gt, gte). As on the service, a condition without a
// value or with an operator it does not know is left out, an entity value may be an entry or its ID, and
// values are compared as the field's type (a number typed as text matches the text).
import type { FieldDefinition } from "../blueprints/fields.ts";
import { type ContentFilter, operators } from "../content/inputs.ts";
import { systemField } from "../content/system-fields.ts";

export interface QueryCondition {
  path?: unknown;
  op?: unknown;
  value?: unknown;
}

const empty = (value: unknown) =>
  value === null ||
  value === undefined ||
  ((typeof value === "string" || Array.isArray(value)) && value.length === 0);

/** The value as the field compares it. */
function typed(value: unknown, field: FieldDefinition | undefined, system: boolean): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && "id" in value)
    return (value as { id: unknown }).id;
  if (system || !field) return value;
  if (
    field.type === "number" &&
    typeof value === "string" &&
    value.trim() !== "" &&
    Number.isFinite(Number(value))
  )
    return Number(value);
  if (field.type === "toggle" && typeof value === "string") return value === "true";
  if (field.type !== "number" && field.type !== "toggle" && typeof value === "number") return String(value);
  return value;
}

export function contentFilters(
  conditions: readonly QueryCondition[],
  fields: Map<string, FieldDefinition>,
): ContentFilter[] {
  const filters: ContentFilter[] = [];
  for (const { path, op, value } of conditions) {
    if (typeof path !== "string" || typeof op !== "string" || empty(value)) continue;
    if (!(operators as string[]).includes(op)) continue;
    const system = systemField(path) !== undefined;
    const field = fields.get(path);
    // `in` takes a list; one value (a quoted string, a number) is a list of one, never a failed page.
    const given =
      op === "in"
        ? (Array.isArray(value) ? value : [value]).map((one) => typed(one, field, system))
        : typed(value, field, system);
    filters.push({ field: path, [op]: given });
  }
  return filters;
}
