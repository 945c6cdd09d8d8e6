// The shape of a Prisma query-compiler request: the request with its values replaced by numbered
// placeholders, so that requests differing only in those values share one compiled plan (plan-cache.ts).
//
// Replaced: strings under any `where` (of the request or of a nested selection); under a write's `data`,
// each field's string, date and JSON value, and those of a nested `createMany`'s rows (an entry's
// references: each names other entries, so kept whole they would make a shape per set of targets).
// Kept in the shape: numbers, booleans, nulls, sort orders, modes, dates of filters, and the other nested
// writes and update operations ({increment: 1}), so that they decide the plan themselves.
// A string or JSON placeholder is a marker string; a date one is a sentinel date, since the compiler
// parses dates. Each kind has its own marker, so a string and an object in one place make two shapes.

const readActions = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "aggregate",
  "groupBy",
]);
const writeActions = new Set([
  "createOne",
  "createMany",
  "updateOne",
  "updateMany",
  "deleteOne",
  "deleteMany",
]);
/** Keys whose string values are options, not data. */
const optionKeys = new Set(["mode"]);
/** Keys that make an object under `data` a nested write or an update operation rather than a JSON value. */
const operationKeys = new Set([
  "set",
  "increment",
  "decrement",
  "multiply",
  "divide",
  "push",
  "unset",
  "create",
  "createMany",
  "connect",
  "connectOrCreate",
  "disconnect",
  "delete",
  "deleteMany",
  "update",
  "updateMany",
  "upsert",
]);

export const marker = "\u0001cms-plan-param-";
export const jsonMarker = "\u0001cms-plan-json-";
export const end = "\u0001";
const SENTINEL_EPOCH = Date.parse("0001-01-01T00:00:00.000Z");
/** The date standing for placeholder `index`: none of the replaced dates is left in the shape. */
export const sentinelDate = (index: number) => new Date(SENTINEL_EPOCH + index).toISOString();

export interface PlanShape {
  /** The request with placeholders: the compiler's input for the shared plan, and its cache key. */
  key: string;
  /** The replaced values in placeholder order: strings, dates' ISO strings and JSON values. */
  values: unknown[];
}

type Request = { action?: string; query?: unknown };

/** Raw SQL ($queryRawUnsafe, $executeRawUnsafe): its string parameters are placeholders. */
const rawActions = new Set(["queryRaw", "executeRaw"]);

/** The request's shape, or null for actions whose plans are not shared. */
export function parameterize(request: string): PlanShape | null {
  const parsed = JSON.parse(request) as Request;
  if (parsed.action !== undefined && rawActions.has(parsed.action)) return rawShape(parsed);
  const write = parsed.action !== undefined && writeActions.has(parsed.action);
  if (!write && !(parsed.action && readActions.has(parsed.action))) return null;
  const values: unknown[] = [];
  const query = shapeQuery(parsed.query, values, write);
  return { key: JSON.stringify({ ...parsed, query }), values };
}

/**
 * A raw query's shape: its SQL text is kept, its string parameters (JSON-encoded in `parameters`) are
 * placeholders, the others (numbers, tagged dates and bytes) are kept. The import's bulk inserts
 * (schema/import/bulk-insert.ts) send megabytes of rows as one string, which the compiler would
 * otherwise copy through its WASM memory on every statement, at a tenth of the database's speed.
 */
function rawShape(parsed: Request): PlanShape | null {
  const query = parsed.query as { arguments?: { parameters?: unknown } } | undefined;
  const parameters = query?.arguments?.parameters;
  if (typeof parameters !== "string") return null;
  const list = JSON.parse(parameters) as unknown;
  if (!Array.isArray(list)) return null;
  const values: unknown[] = [];
  const shaped = list.map((value) =>
    typeof value === "string" ? placeholder(values, value, marker) : value,
  );
  const args = { ...query?.arguments, parameters: JSON.stringify(shaped) };
  return { key: JSON.stringify({ ...parsed, query: { ...query, arguments: args } }), values };
}

/** The query with placeholders under every `where` (top-level or of a nested selection) and `data`. */
function shapeQuery(node: unknown, values: unknown[], write: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => shapeQuery(item, values, write));
  if (node === null || typeof node !== "object") return node;
  const copy: Record<string, unknown> = {};
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (key === "where") copy[key] = replaceStrings(value, values);
    else if (key === "data" && write) copy[key] = replaceRows(value, values);
    else copy[key] = shapeQuery(value, values, write);
  }
  return copy;
}

function placeholder(values: unknown[], value: unknown, kind: string): string {
  values.push(value);
  return `${kind}${values.length - 1}${end}`;
}

function replaceStrings(node: unknown, values: unknown[]): unknown {
  if (typeof node === "string") return placeholder(values, node, marker);
  if (Array.isArray(node)) return node.map((item) => replaceStrings(item, values));
  if (node === null || typeof node !== "object") return node;
  // Tagged values ({$type: "DateTime", value}) are kept as they are.
  if ("$type" in node) return node;
  const copy: Record<string, unknown> = {};
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    copy[key] = optionKeys.has(key) ? value : replaceStrings(value, values);
  }
  return copy;
}

/** `data`: one row of field values, or several (createMany). */
function replaceRows(data: unknown, values: unknown[]): unknown {
  if (Array.isArray(data)) return data.map((row) => replaceRows(row, values));
  if (data === null || typeof data !== "object") return data;
  const copy: Record<string, unknown> = {};
  for (const field in data) copy[field] = replaceFieldValue((data as Record<string, unknown>)[field], values);
  return copy;
}

function replaceFieldValue(value: unknown, values: unknown[]): unknown {
  if (typeof value === "string") return placeholder(values, value, marker);
  if (value === null || typeof value !== "object") return value;
  if ("$type" in value) {
    const tagged = value as { $type: unknown; value: unknown };
    if (tagged.$type !== "DateTime" || typeof tagged.value !== "string") return value;
    values.push(tagged.value);
    return { $type: "DateTime", value: sentinelDate(values.length - 1) };
  }
  if (!Array.isArray(value) && Object.keys(value).some((key) => operationKeys.has(key)))
    return shapeOperation(value as Record<string, unknown>, values);
  return placeholder(values, value, jsonMarker);
}

/** A nested write or an update operation, kept, but for the values of a nested `createMany`'s rows. */
function shapeOperation(operation: Record<string, unknown>, values: unknown[]): unknown {
  const createMany = operation.createMany;
  if (createMany === null || typeof createMany !== "object" || !("data" in createMany)) return operation;
  return { ...operation, createMany: { ...createMany, data: replaceRows(createMany.data, values) } };
}
