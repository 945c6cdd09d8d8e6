// Walking a document's values for the checks made before its records are read (plain-values.ts,
// text-check.ts): in document order, without recursion (a document may nest deep), and into each list or
// mapping once, where it is first met (`yaml` gives every alias of a node the same object, and a small
// document may alias a large node thousands of times). Places are linked to their parents, so a path
// is only made for a value that has a problem.
import { isPlainObject } from "../json.ts";
import type { Path } from "./document.ts";

export interface Place {
  key: string | number;
  parent: Place | undefined;
}

/**
 * Calls `visit` with each value below `root`'s entries (only those of `keys`, when given) and its place;
 * looks into the lists and plain mappings `visit` does not answer false for.
 */
export function walkValues(
  root: object,
  visit: (value: unknown, place: Place) => boolean,
  keys?: readonly string[],
): void {
  for (const _ of steps(root, visit, keys));
}

/** As walkValues, awaiting `pause` between values: the walk of a large document lets other work run. */
export async function walkValuesPausing(
  root: object,
  visit: (value: unknown, place: Place) => boolean,
  keys: readonly string[] | undefined,
  pause: () => Promise<void> | undefined,
): Promise<void> {
  let count = 0;
  for (const _ of steps(root, visit, keys)) if (++count % 256 === 0) await pause();
}

/** The walk, one value a step. */
function* steps(
  root: object,
  visit: (value: unknown, place: Place) => boolean,
  keys?: readonly string[],
): Generator<void> {
  const top = keys ?? Object.keys(root);
  const pending: [unknown, Place][] = top
    .map((key): [unknown, Place] => [(root as Record<string, unknown>)[key], { key, parent: undefined }])
    .reverse();
  const seen = new Set<object>();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, place] = next;
    yield;
    if (!visit(value, place) || typeof value !== "object" || value === null || seen.has(value)) continue;
    if (!Array.isArray(value) && !isPlainObject(value)) continue;
    seen.add(value);
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? [...value.entries()]
      : Object.entries(value);
    // Reversed onto the stack, so that they are met in document order.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as [string | number, unknown];
      pending.push([child, { key, parent: place }]);
    }
  }
}

export function pathOf(place: Place): Path {
  const path: Path = [];
  for (let at: Place | undefined = place; at; at = at.parent) path.unshift(at.key);
  return path;
}
