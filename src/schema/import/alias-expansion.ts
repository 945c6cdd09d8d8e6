// What a document holds once its aliases are expanded. `yaml` gives every alias of a node the same object,
// so a few kilobytes can stand for millions of values (a list of 20,000 numbers aliased by each of 1,000
// entries), which every later step (the rules of each record, the rows written) would meet one by one. And
// an alias inside its own node makes a value that contains itself. Counted once per object, each shared
// object's count added at each place it stands; without recursion, as the document may nest deep.
import { isPlainObject } from "../json.ts";

/** The values `data` holds with its aliases expanded, counting no further than `limit`; `cycle` when a list
 * or mapping contains itself. */
export function expandedValues(data: unknown, limit: number): number | "cycle" {
  if (typeof data !== "object" || data === null) return 1;
  const counted = new Map<object, number>();
  const open = new Set<object>([data]);
  const stack = [{ node: data, children: childrenOf(data), next: 0, total: 1 }];
  for (;;) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (typeof child !== "object" || child === null) frame.total++;
      else if (counted.has(child)) frame.total += counted.get(child) as number;
      else if (open.has(child)) return "cycle";
      else {
        open.add(child);
        stack.push({ node: child, children: childrenOf(child), next: 0, total: 1 });
      }
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    const total = Math.min(frame.total, limit + 1);
    counted.set(frame.node, total);
    const parent = stack[stack.length - 1];
    if (!parent) return total;
    parent.total += total;
  }
}

/** A list's or mapping's values; anything else `yaml` makes (bytes, a date) is one value, refused later. */
function childrenOf(node: object): unknown[] {
  if (Array.isArray(node)) return node;
  return isPlainObject(node) ? Object.values(node) : [];
}
