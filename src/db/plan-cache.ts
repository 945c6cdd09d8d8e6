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

/** Where a plan holds each placeholder: keys down to it, and the index of its value. */
type Slots = Map<string | number, Slots | number>;

interface Shape {
  /** Frozen: plans share every part without a placeholder. */
  plan: Plan;
  slots: Slots;
}

/** Shapes by their placeholder request; null marks a shape that must always be compiled anew. */
type Shapes = Map<string, Shape | null>;

/** The request with its `where` strings replaced by numbered placeholders, and those strings. */
export function parameterize(request: string): { key: string; values: string[] } | null {
  const parsed = JSON.parse(request) as { action?: string; query?: unknown };
  if (!parsed.action || !readActions.has(parsed.action)) return null;
  const values: string[] = [];
  const key = JSON.stringify(replaceStrings(parsed, false, values));
  return { key, values };
}

function replaceStrings(node: unknown, inWhere: boolean, values: string[]): unknown {
  if (typeof node === "string") {
    if (!inWhere) return node;
    values.push(node);
    return `${marker}${values.length - 1}${end}`;
  }
  if (Array.isArray(node)) return node.map((item) => replaceStrings(item, inWhere, values));
  if (node === null || typeof node !== "object") return node;
  // Tagged values ({$type: "DateTime", value}) are kept as they are.
  if ("$type" in node) return node;
  const copy: Record<string, unknown> = {};
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    copy[key] = optionKeys.has(key) ? value : replaceStrings(value, inWhere || key === "where", values);
  }
  return copy;
}

/**
 * Where the compiled plan holds each placeholder, as a whole parameter value; null when one is built
 * into another string (a LIKE pattern, a JSON-encoded filter value), which a value cannot be put back in.
 */
export function slotsOf(plan: Plan): Slots | null {
  const state = { embedded: false };
  const found = collect(plan, state);
  if (typeof found === "number") return null;
  return state.embedded ? null : (found ?? new Map());
}

/** The slots under `node`, null when there are none; a placeholder string is a slot itself (its index). */
function collect(node: unknown, state: { embedded: boolean }): Slots | number | null {
  if (typeof node === "string") {
    if (!node.includes(marker)) {
      if (node.includes(escapedMarker)) state.embedded = true;
      return null;
    }
    const whole = node.startsWith(marker) && node.endsWith(end);
    const index = whole ? Number(node.slice(marker.length, -end.length)) : Number.NaN;
    if (Number.isInteger(index)) return index;
    state.embedded = true;
    return null;
  }
  if (node === null || typeof node !== "object") return null;
  const here: Slots = new Map();
  if (Array.isArray(node)) {
    node.forEach((child, index) => {
      const found = collect(child, state);
      if (found !== null) here.set(index, found);
    });
  } else {
    for (const key in node) {
      // A placeholder the compiler made a key of would not be put back: such a shape is not cached.
      if (key.includes(marker) || key.includes(escapedMarker)) state.embedded = true;
      const found = collect((node as Record<string, unknown>)[key], state);
      if (found !== null) here.set(key, found);
    }
  }
  return here.size > 0 ? here : null;
}

/** The plan with each slot's value put in, copying only the objects on the way to a slot. */
export function fillSlots(plan: Plan, slots: Slots, values: string[]): Plan {
  if (slots.size === 0) return plan;
  const copy = (Array.isArray(plan) ? [...plan] : { ...(plan as object) }) as Record<
    string | number,
    unknown
  >;
  for (const [key, next] of slots) {
    copy[key] = typeof next === "number" ? values[next] : fillSlots(copy[key], next, values);
  }
  return copy;
}

/** A copy of the plan with each placeholder replaced by its value; null when a placeholder is embedded. */
export function fill(plan: Plan, values: string[]): Plan | null {
  const slots = slotsOf(plan);
  return slots ? fillSlots(plan, slots, values) : null;
}

function deepFreeze<T>(node: T): T {
  if (node !== null && typeof node === "object" && !Object.isFrozen(node)) {
    for (const value of Object.values(node)) deepFreeze(value);
    Object.freeze(node);
  }
  return node;
}

/** One cache per compiler (each provider's runtime), so a plan never serves the other database. */
function cached(compile: Compile): Compile {
  const shapes: Shapes = new Map();
  const remember = (key: string, shape: Shape | null) => {
    if (shapes.size >= MAX_SHAPES) {
      const oldest = shapes.keys().next().value;
      if (oldest !== undefined) shapes.delete(oldest);
    }
    shapes.set(key, shape);
  };
  return function compileCached(this: unknown, request: string): Plan {
    const shape = parameterize(request);
    if (!shape) return compile.call(this, request);
    const known = shapes.get(shape.key);
    if (known === null) {
      return compile.call(this, request);
    }
    if (known) {
      // Most recently used last: the oldest shapes are the first to go.
      shapes.delete(shape.key);
      shapes.set(shape.key, known);
      return fillSlots(known.plan, known.slots, shape.values);
    }
    let plan: Plan;
    try {
      plan = compile.call(this, shape.key);
    } catch {
      // The placeholders do not fit this shape (a string that must parse as something else).
      remember(shape.key, null);
      return compile.call(this, request);
    }
    const slots = slotsOf(plan);
    if (!slots) {
      remember(shape.key, null);
      return compile.call(this, request);
    }
    // Frozen, so that an executor writing into a shared part fails loudly instead of leaking.
    remember(shape.key, { plan: deepFreeze(plan), slots });
    return fillSlots(plan, slots, shape.values);
  };
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
