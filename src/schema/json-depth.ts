// How deep free-form JSON may nest. No value the API stores needs more than a few levels; far deeper
// ones (thousands of levels) overflow the stack of recursive code downstream (JSON.stringify, the
// database driver's encoding), which would be a 500 instead of a clear client error.
export const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects in `value` nest deeper than `max` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
