// JSON.parse reads a number too large for a double (`1e999`) as Infinity, which no JSON column can hold:
// written out it becomes null, so a sent `1e999` would silently clear or blank a stored value. Free-form
// values are checked for such numbers before anything is stored, whatever transport brought them.

export const NON_FINITE_MESSAGE = "must be a finite number";

/**
 * Where in `value` its first non-finite number sits, as path segments (`[]` for `value` itself), or
 * undefined when it has none. Walked without recursion, like json-depth.ts.
 */
export function nonFiniteNumberAt(value: unknown): (string | number)[] | undefined {
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, path] = next;
    if (typeof current === "number" && !Number.isFinite(current)) return path;
    if (typeof current !== "object" || current === null) continue;
    const children = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of children) pending.push([child, [...path, key]]);
  }
  return undefined;
}
