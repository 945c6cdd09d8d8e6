// A mapping of more keys than any record has: a record's fields, a value's keys (a dictionary field's),
// the sections and collections number in the hundreds at most. Each key of a value is then checked on
// the event loop that answers every request (its rules, its text, its copy out of the reading worker),
// so a mapping of 50,000 keys, written once and aliased, held it for a second and more. The document is
// bounded by what it declares: such a mapping is refused where it is, while it is read (document.ts).
import { isPlainObject } from "../json.ts";
import type { Path } from "./document.ts";
import { pathOf, walkValues } from "./value-walk.ts";

export const MAX_MAPPING_KEYS = 10_000;

/** The paths of the mappings below `data` holding more than MAX_MAPPING_KEYS keys (the first few). */
export function wideMappings(data: unknown, most = 10): Path[] {
  const found: Path[] = [];
  if (typeof data !== "object" || data === null) return found;
  if (isPlainObject(data) && Object.keys(data).length > MAX_MAPPING_KEYS) found.push([]);
  walkValues(data, (value, place) => {
    if (found.length >= most) return false;
    if (typeof value !== "object" || value === null || Array.isArray(value) || !isPlainObject(value))
      return true;
    if (Object.keys(value).length <= MAX_MAPPING_KEYS) return true;
    found.push(pathOf(place));
    return false;
  });
  return found;
}
