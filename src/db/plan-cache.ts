// A query-plan cache for Prisma's query compiler (engineType "client"). Prisma 6 compiles every query
// through its WASM compiler anew, which cost more than half of a simple read's CPU. Reads of one shape
// differ only in their `where` strings (a handle, an ID, a token hash), so a plan is compiled once per
// shape with placeholder strings and then reused with the real strings put back in its parameters.
//
// Safety: only reads are cached (writes may carry generated defaults); only plain strings under `where`
// become placeholders (sort orders, modes and tagged values such as dates stay in the key); a shape is
// cached only when every placeholder comes out of the compiler as a whole parameter value and nowhere
// else (a LIKE pattern built around it, say), else that shape always compiles anew. Plans are copied
// on every use, so nothing the executor does to one leaks into another.
// The compiler runtimes ship without type declarations; only `QueryCompiler.prototype.compile` is used.
// @ts-expect-error TS7016
import * as postgresql from "@prisma/client/runtime/query_compiler_bg.postgresql.mjs";
// @ts-expect-error TS7016
import * as sqlite from "@prisma/client/runtime/query_compiler_bg.sqlite.mjs";

type Plan = unknown;
type Compile = (this: unknown, request: string) => Plan;

const readActions = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "aggregate",
  "groupBy",
]);
/** Keys whose string values are options, not data. */
const optionKeys = new Set(["mode"]);
const MAX_SHAPES = 2000;
const marker = "\u0001cms-plan-param-";
const end = "\u0001";
/** A placeholder inside a value the compiler serialized itself (a JSON filter's `equals`), JSON-escaped. */
const escapedMarker = JSON.stringify(marker).slice(1, -1);

interface Shape {
  plan: Plan;
}

/** Shapes by their placeholder request; null marks a shape that must always be compiled anew. */
const shapes = new Map<string, Shape | null>();
export const planCacheStats = { hits: 0, misses: 0, uncached: 0 };

/** The request with its `where` strings replaced by numbered placeholders, and those strings. */
export function parameterize(request: string): { key: string; values: string[] } | null {
  const parsed = JSON.parse(request) as { action?: string; query?: unknown };
  if (!parsed.action || !readActions.has(parsed.action)) return null;
  const values: string[] = [];
  const replace = (node: unknown, inWhere: boolean): unknown => {
    if (typeof node === "string") {
      if (!inWhere) return node;
      values.push(node);
      return `${marker}${values.length - 1}${end}`;
    }
    if (Array.isArray(node)) return node.map((item) => replace(item, inWhere));
    if (node === null || typeof node !== "object") return node;
    // Tagged values ({$type: "DateTime", value}) are kept as they are.
    if ("$type" in node) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      copy[key] = optionKeys.has(key) ? value : replace(value, inWhere || key === "where");
    }
    return copy;
  };
  const key = JSON.stringify(replace(parsed, false));
  return { key, values };
}

/** A copy of the plan with each placeholder replaced by its value; null when a placeholder is embedded. */
export function fill(plan: Plan, values: string[]): Plan | null {
  let embedded = false;
  const visit = (node: unknown): unknown => {
    if (typeof node === "string") {
      if (!node.includes(marker)) {
        if (node.includes(escapedMarker)) embedded = true;
        return node;
      }
      const whole = node.startsWith(marker) && node.endsWith(end);
      const value = whole ? values[Number(node.slice(marker.length, -end.length))] : undefined;
      if (value === undefined) embedded = true;
      return value ?? node;
    }
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== "object") return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = visit(value);
    return copy;
  };
  const filled = visit(plan);
  return embedded ? null : filled;
}

function cached(compile: Compile): Compile {
  return function compileCached(this: unknown, request: string): Plan {
    const shape = parameterize(request);
    if (!shape) return compile.call(this, request);
    const known = shapes.get(shape.key);
    if (known === null) {
      planCacheStats.uncached++;
      return compile.call(this, request);
    }
    if (known) {
      planCacheStats.hits++;
      // Most recently used last: the oldest shapes are the first to go.
      shapes.delete(shape.key);
      shapes.set(shape.key, known);
      return fill(known.plan, shape.values) ?? compile.call(this, request);
    }
    planCacheStats.misses++;
    let plan: Plan;
    try {
      plan = compile.call(this, shape.key);
    } catch {
      // The placeholders do not fit this shape (a string that must parse as something else).
      remember(shape.key, null);
      return compile.call(this, request);
    }
    const filled = fill(plan, shape.values);
    remember(shape.key, filled ? { plan } : null);
    return filled ?? compile.call(this, request);
  };
}

function remember(key: string, shape: Shape | null): void {
  if (shapes.size >= MAX_SHAPES) {
    const oldest = shapes.keys().next().value;
    if (oldest !== undefined) shapes.delete(oldest);
  }
  shapes.set(key, shape);
}

/** Installs the cache on both providers' compilers, once. */
export function installPlanCache(): void {
  for (const runtime of [sqlite, postgresql] as { QueryCompiler: { prototype: { compile: Compile } } }[]) {
    const prototype = runtime.QueryCompiler.prototype as { compile: Compile; planCache?: true };
    if (prototype.planCache) continue;
    prototype.compile = cached(prototype.compile);
    prototype.planCache = true;
  }
}
