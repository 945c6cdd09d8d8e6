// What `yaml` reads besides JSON's values: an explicit tag makes bytes (`!!binary`), a Date
// (`!!timestamp`), a Set (`!!set`), a Map (`!!omap`) or a symbol (`!!merge`). No record holds such a
// thing, and a rule's message would print its insides (`{ type: "Buffer", data: [Array] }`): each is a
// problem of its own, at its place. The fast path's schema has none of these tags (it declines them),
// so only `yaml`'s reading is walked (value-walk.ts).
import { isPlainObject } from "../json.ts";
import type { Path } from "./document.ts";
import { pathOf, walkValues } from "./value-walk.ts";

export interface ForeignValue {
  path: Path;
  /** The YAML tag that made it. */
  tag: string;
}

export function foreignValues(data: unknown): ForeignValue[] {
  const tag = foreignTag(data);
  if (tag) return [{ path: [], tag }];
  const found: ForeignValue[] = [];
  if (typeof data !== "object" || data === null) return found;
  walkValues(data, (value, place) => {
    const tag = foreignTag(value);
    if (tag) found.push({ path: pathOf(place), tag });
    return !tag;
  });
  return found;
}

function foreignTag(value: unknown): string | undefined {
  if (typeof value === "symbol") return "!!merge";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (value instanceof Uint8Array) return "!!binary";
  if (value instanceof Date) return "!!timestamp";
  if (value instanceof Set) return "!!set";
  if (value instanceof Map) return "!!omap";
  return isPlainObject(value) ? undefined : "a tag";
}
