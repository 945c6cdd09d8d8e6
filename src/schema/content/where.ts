// Filters of the content queries as a Prisma where-clause. Every filter names a system field or a
// blueprint field of the collection and is checked against that field's type: an unknown field, an
// operator the type has no meaning for, or a value of the wrong type is a 422 on `filter[<i>].<operator>`.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseDateTime } from "../scalars.ts";
import { type ContentFilter, type Operator, operators } from "./inputs.ts";
import { type Comparison, numberComparison, valueFilter } from "./json-values.ts";
import { type SystemField, systemField } from "./system-fields.ts";
import { type TextOperator, type TextTarget, textSearch } from "./text-search.ts";

type TextColumn = Extract<TextTarget, { column: string }>["column"];

type Where = Prisma.EntryWhereInput;

export const MAX_FILTERS = 20;
export const MAX_IN_VALUES = 100;

export interface FilterTarget {
  collectionId: string;
  /** The fields of the collection's blueprints, by handle. */
  fields: Map<string, FieldDefinition>;
}

export async function filterWhere(
  ctx: Context,
  target: FilterTarget,
  filters: readonly ContentFilter[] | null | undefined,
): Promise<Where[]> {
  if (!filters) return [];
  if (filters.length > MAX_FILTERS)
    throw ApiError.invalid("filter", `must have at most ${MAX_FILTERS} conditions`);
  const conditions: Where[] = [];
  for (const [index, filter] of filters.entries()) {
    const at = `filter[${index}]`;
    const used = operators.filter((op) => filter[op] !== undefined && filter[op] !== null);
    if (used.length === 0) throw ApiError.invalid(at, `needs an operator: ${operators.join(", ")}`);
    const system = systemField(filter.field);
    const field = target.fields.get(filter.field);
    if (!system && !field)
      throw ApiError.invalid(`${at}.field`, `'${filter.field}' is not a field of this collection`);
    for (const op of used) {
      const path = `${at}.${op}`;
      if (op === "in" && (filter.in?.length ?? 0) > MAX_IN_VALUES)
        throw ApiError.invalid(path, `must list at most ${MAX_IN_VALUES} values`);
      conditions.push(
        system
          ? await systemCondition(ctx, target.collectionId, system, op, filter[op], path)
          : await valueCondition(ctx, target.collectionId, field as FieldDefinition, op, filter[op], path),
      );
    }
  }
  return conditions;
}

const comparisons: Operator[] = ["lt", "lte", "gt", "gte"];
const textOperators: Operator[] = ["contains", "starts_with", "ends_with"];

async function systemCondition(
  ctx: Context,
  collectionId: string,
  field: SystemField,
  op: Operator,
  value: unknown,
  path: string,
): Promise<Where> {
  const { column, kind } = field;
  if (textOperators.includes(op) && kind !== "string") refuse(path, `cannot be used on ${kind} fields`);
  if (comparisons.includes(op) && kind !== "int" && kind !== "date")
    refuse(path, "compares numbers and dates only");
  const typed = (one: unknown) => systemValue(kind, one, path);
  switch (op) {
    case "eq":
      return { [column]: typed(value) };
    case "ne": {
      const differs = { [column]: { not: typed(value) } };
      return field.nullable ? { OR: [differs, { [column]: null }] } : differs;
    }
    case "in":
      return { [column]: { in: (value as unknown[]).map(typed) } };
    case "contains":
    case "starts_with":
    case "ends_with":
      return textSearch(ctx, collectionId, { column: column as TextColumn }, op, value as string, path);
    default:
      return { [column]: { [op]: typed(value) } };
  }
}

function systemValue(kind: SystemField["kind"], value: unknown, path: string): string | number | Date {
  if (kind === "int") {
    if (!Number.isSafeInteger(value)) refuse(path, "must be a whole number");
    return value as number;
  }
  if (typeof value !== "string")
    refuse(path, kind === "date" ? "must be an ISO 8601 date-time" : "must be a string");
  if (kind !== "date") return value as string;
  try {
    return parseDateTime(value);
  } catch {
    return refuse(path, "must be an ISO 8601 date-time");
  }
}

const textTypes = new Set(["text", "rich_text", "raw_html", "enumerate", "image", "template"]);

async function valueCondition(
  ctx: Context,
  collectionId: string,
  field: FieldDefinition,
  op: Operator,
  value: unknown,
  path: string,
): Promise<Where> {
  const { handle, type } = field;
  if (type === "entity") {
    if (op !== "eq" && op !== "ne" && op !== "in")
      refuse(path, "entity fields take eq, ne and in (entry IDs)");
    const ids = (op === "in" ? (value as unknown[]) : [value]).map(
      (id) => expect(id, "string", path) as string,
    );
    const references = { references: { some: { field: handle, toId: { in: ids } } } };
    return op === "ne" ? { NOT: references } : references;
  }
  const expected =
    type === "number" ? "number" : type === "toggle" ? "boolean" : textTypes.has(type) ? "string" : null;
  if (!expected) refuse(path, `${type} fields cannot be filtered on`);
  if (textOperators.includes(op)) {
    if (expected !== "string") refuse(path, `cannot be used on ${type} fields`);
    return textSearch(ctx, collectionId, { handle }, op as TextOperator, value as string, path);
  }
  if (comparisons.includes(op)) {
    if (expected !== "number") refuse(path, "compares numbers and dates only");
    return numberComparison(
      ctx,
      collectionId,
      handle,
      op as Comparison,
      expect(value, "number", path) as number,
      path,
    );
  }
  if (expected === "boolean" && op === "in") refuse(path, "toggle fields take eq and ne");
  const listed = (op === "in" ? (value as unknown[]) : [value]).map((one) =>
    expect(one, expected as string, path),
  );
  const equals = listed.map((one) => valueFilter(ctx, handle, { equals: one }));
  const equal = equals.length === 1 ? (equals[0] as Where) : { OR: equals };
  if (op !== "ne") return equal;
  // Entries without the value differ too (NOT alone would leave them out: SQL NULL).
  return { OR: [{ NOT: equal }, valueFilter(ctx, handle, { equals: Prisma.AnyNull })] };
}

function expect(value: unknown, type: string, path: string): unknown {
  if (typeof value !== type || (type === "number" && !Number.isFinite(value)))
    refuse(path, `must be a ${type}`);
  return value;
}

function refuse(path: string, message: string): never {
  throw ApiError.invalid(path, message);
}
