// Bounds on one page render however its time is spent. liquidjs checks its
// `renderLimit` only between nodes and counts `memoryLimit` only where it allocates, so one filter
// (`{{ a | uniq | uniq | … }}` on a four-million range), one operator or one output could hold the
// process for seconds. Every place a template's value reaches work therefore passes through here —
// each filter, operator, output and tag, and every loop iteration — which
//  - stops the render at the page's deadline (RENDER_LIMIT_MS for template and layout together),
//  - refuses a value too large for the work (so no single step between checks runs long), and
//  - lets the thread's other pages render once a slice of SLICE_MS has been spent.
// Pages render in worker threads (render-pool.ts), several to a worker: the turns let a worker's other
// pages, and the answers to its list reads, through; a worker stuck in one long step is stopped at the
// deadline by the main thread.
import type { Context } from "liquidjs";
import { isPlainObject } from "../schema/json.ts";
import { currentScope } from "./render-scope.ts";

/** Longest stretch a render runs before the other pages of its thread get a turn. */
const SLICE_MS = 40;
/** Largest value a filter, operator or output works on: a unit is an element, a property or 10 characters. */
export const VALUE_UNITS = 200_000;
/** Largest list a filter that evaluates a property or expression per element (`where`, `map`…) takes. */
export const LOOKUP_ITEMS = 10_000;
/** Largest list an operator compares element by element (`==`, `contains`). */
export const COMPARED_ITEMS = 50_000;

/**
 * Units of `value`, counted until `limit` is passed (shared arrays count each time they are reached,
 * which is what stringifying or comparing them costs). `charsPerUnit` 0 counts no characters.
 */
export function unitsOf(value: unknown, limit: number, charsPerUnit = 10): number {
  let units = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && units <= limit) {
    const next = pending.pop();
    units +=
      typeof next === "string" && charsPerUnit ? Math.max(1, Math.ceil(next.length / charsPerUnit)) : 1;
    const children = Array.isArray(next)
      ? next
      : next !== null && typeof next === "object" && isPlainObject(next)
        ? Object.values(next)
        : [];
    // Each pending value counts at least one unit.
    if (units + pending.length + children.length > limit) return limit + 1;
    for (const child of children) pending.push(child);
  }
  return units;
}

export class RenderLimitError extends Error {}

export function checkSize(values: unknown[], what: string, lookupItems?: number): void {
  if (unitsOf(values, VALUE_UNITS) > VALUE_UNITS) throw new RenderLimitError(`${what}: value too large`);
  if (lookupItems !== undefined && unitsOf(values, lookupItems, 0) > lookupItems)
    throw new RenderLimitError(`${what}: list too long`);
}

let lastTurn = performance.now();

/**
 * Throws once the render is past its deadline; returns a promise that settles on the event loop's
 * next turn when this render has held the process for a slice, else undefined (no await at all).
 */
export function pace(ctx: Context): Promise<void> | undefined {
  const now = performance.now();
  ctx.renderLimit.check(now);
  const deadline = currentScope()?.deadline;
  if (deadline !== undefined && now > deadline) throw new RenderLimitError("page render time limit exceeded");
  if (now - lastTurn < SLICE_MS) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      lastTurn = performance.now();
      resolve();
    }),
  );
}
