// What `yaml` reads besides JSON's values: an explicit tag makes bytes (`!!binary`), a Date
// (`!!timestamp`), a Set (`!!set`), a Map (`!!omap`) or a symbol (`!!merge`). No record holds such a
// thing, and a rule's message would print its insides (`{ type: "Buffer", data: [Array] }`): each is a
// problem of its own, at its place. The fast path's schema has none of these tags (it declines them),
// so only `yaml`'s reading is walked; without recursion, as the document may nest deep, and each object
// once: `yaml` gives every alias of a node the same object, and a small document may alias a large node
// thousands of times.
import type { Path } from "./document.ts";

export interface ForeignValue {
  path: Path;
  /** The YAML tag that made it. */
  tag: string;
}

interface Place {
  value: unknown;
  key: string | number;
  parent: Place | undefined;
}

export function foreignValues(data: unknown): ForeignValue[] {
  const found: ForeignValue[] = [];
  const pending: Place[] = [{ value: data, key: "", parent: undefined }];
  const seen = new Set<object>();
  for (let place = pending.pop(); place; place = pending.pop()) {
    const { value } = place;
    const tag = foreignTag(value);
    if (tag) {
      found.push({ path: pathOf(place), tag });
      continue;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const children: Place[] = Array.isArray(value)
      ? value.map((item, index) => ({ value: item, key: index, parent: place }))
      : Object.entries(value).map(([key, item]) => ({ value: item, key, parent: place }));
    // Reversed onto the stack, so that they are found in document order.
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index] as Place);
  }
  return found;
}

function foreignTag(value: unknown): string | undefined {
  if (typeof value === "symbol") return "!!merge";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (value instanceof Uint8Array) return "!!binary";
  if (value instanceof Date) return "!!timestamp";
  if (value instanceof Set) return "!!set";
  if (value instanceof Map) return "!!omap";
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null ? undefined : "a tag";
}

/** The path below the document's root (whose own place has no key). */
function pathOf(place: Place): Path {
  const path: Path = [];
  for (let at: Place | undefined = place; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
}
