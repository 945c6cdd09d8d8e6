// A query-plan cache for Prisma's query compiler (engineType "client"). Prisma 6 compiles every query
// through its WASM compiler anew, which cost more than half of a simple read's CPU and a third of a
// create's. Requests of one shape (plan-shape.ts) differ only in their values, so a shape's plan is
// compiled once with placeholders and then reused with each request's values put back (plan-slots.ts).
//
// Safety: a shape is shared only after its plan, filled with a request's values, came out identical to
// that request's own plan; a shape whose placeholders do not all come out as whole parameter values
// always compiles anew. Generated values (now(), @updatedAt) are calls in the plan, made when it runs.
// Plans are frozen and copied on every use, so nothing the executor does to one leaks into another.
// A shape is learnt on its second request: one seen once costs no extra compile.
//
// Why a private module: Prisma 6 has no public hook or option for caching compiled plans; its public
// extension points (`$extends` query components, driver adapters) run before the compile or after it, on
// SQL already made, so neither can skip it. The compile method of its query-compiler runtime is the only
// place a plan can be kept. Why not Prisma 7.10, which
// keeps plans itself: it was tried whole. Offline it
// works: `generate` only needs PRISMA_SCHEMA_ENGINE_BINARY to name any executable file (it never runs the
// engine it checks for), and migrations can still be diffed by the Prisma 6 CLI kept beside it. But in the
// same-window benchmark against this build (READ_CACHE_MB=0, 20,000 entries), a REST create cost 4.3-4.5 ms
// of CPU instead of 3.0-3.4 (-20 % creates/s) and a list of 20 3.7 instead of 3.5: its runtime costs more
// per call than this cache saves. The move waits for a Prisma whose per-call cost is at most this one's;
// until then this patch is pinned by test/plan-cache*.test.ts, which fail on any change of the compiler's
// shape.

import { isDeepStrictEqual } from "node:util";
// The compiler runtimes ship without type declarations; only `QueryCompiler.prototype.compile` is used.
// @ts-expect-error TS7016
import * as postgresql from "@prisma/client/runtime/query_compiler_bg.postgresql.mjs";
// @ts-expect-error TS7016
import * as sqlite from "@prisma/client/runtime/query_compiler_bg.sqlite.mjs";
import { LRUCache } from "lru-cache";
import { type PlanShape, parameterize } from "./plan-shape.ts";
import { fillSlots, type Slots, slotsOf } from "./plan-slots.ts";

type Plan = unknown;
type Compile = (this: unknown, request: string) => Plan;

const MAX_SHAPES = 2000;
/**
 * What a shape keeps in its key (numbers, nested writes, the length of an `in` list) is not bounded by the
 * request's size limit: each map of shapes keeps at most this many characters of keys, and a longer key is
 * not kept at all (its request is compiled every time). A bulk createMany of 2,000 rows makes a 600 KB key.
 */
const MAX_KEY_CHARS = 8 * 1024 * 1024;
const MAX_KEPT_KEY_CHARS = 1024 * 1024;

interface Shared {
  /** Frozen: plans share every part without a placeholder. */
  plan: Plan;
  slots: Slots;
}

/** A map that forgets its least recently used keys past `maxKeys` keys or `maxChars` characters of keys. */
export class Recent<V> {
  // Boxed: lru-cache keeps no null, and a shape whose plan cannot be shared is kept as null.
  private readonly entries: LRUCache<string, { value: V }>;

  constructor(maxKeys = MAX_SHAPES, maxChars = MAX_KEY_CHARS) {
    this.entries = new LRUCache({
      max: maxKeys,
      maxSize: maxChars,
      sizeCalculation: (_value, key) => Math.max(1, key.length),
    });
  }

  /** The value, now the most recently used. */
  use(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  keep(key: string, value: V): void {
    this.entries.set(key, { value });
  }

  /** Whether the key was there. */
  forget(key: string): boolean {
    return this.entries.delete(key);
  }
}

/** The shape's shared plan, if filling it with `shape`'s values gives exactly the plan `compiled`. */
function learn(compile: () => Plan, shape: PlanShape, compiled: Plan): Shared | null {
  let plan: Plan;
  try {
    plan = compile();
  } catch {
    // A placeholder does not fit where its value stood (a string that must parse as something else).
    return null;
  }
  const slots = slotsOf(plan, shape);
  if (!slots) return null;
  const filled = fillSlots(plan, slots, shape.values);
  if (JSON.stringify(filled) !== JSON.stringify(sameJson(compiled, slots, shape.values))) return null;
  return { plan: deepFreeze(plan), slots };
}

/**
 * `compiled` with each JSON slot's text written as fillSlots writes it, where it holds the same value:
 * the compiler and JSON.stringify spell some numbers differently (1e21, 1e+21) but mean the same.
 */
function sameJson(compiled: Plan, slots: Slots, values: unknown[]): Plan {
  if (compiled === null || typeof compiled !== "object") return compiled;
  const copy = (Array.isArray(compiled) ? [...compiled] : { ...compiled }) as Record<
    string | number,
    unknown
  >;
  for (const [key, slot] of slots) {
    const here = copy[key];
    if (slot instanceof Map) copy[key] = sameJson(here, slot, values);
    else if (slot.json && typeof here === "string" && isDeepStrictEqual(parsed(here), values[slot.index])) {
      copy[key] = JSON.stringify(values[slot.index]);
    }
  }
  return copy;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
  // Shapes seen once are kept apart, so that a stream of one-off shapes cannot push out shared plans.
  const seenOnce = new Recent<true>();
  const shapes = new Recent<Shared | null>();
  return function compileCached(this: unknown, request: string): Plan {
    const shape = parameterize(request);
    if (!shape || shape.key.length > MAX_KEPT_KEY_CHARS) return compile.call(this, request);
    const known = shapes.use(shape.key);
    if (known) return fillSlots(known.plan, known.slots, shape.values);
    if (known === null) return compile.call(this, request);
    if (!seenOnce.forget(shape.key)) {
      seenOnce.keep(shape.key, true);
      return compile.call(this, request);
    }
    const plan = compile.call(this, request);
    shapes.keep(
      shape.key,
      learn(() => compile.call(this, shape.key), shape, plan),
    );
    return plan;
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
