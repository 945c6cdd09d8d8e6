// Text the database cannot store (src/db/text-guard.ts: a NUL, which PostgreSQL refuses, or an unpaired
// surrogate, which is no Unicode text) is refused while the file is checked, at its place in the
// document. Left to the guard, a dry run would pass what the import's writes then refuse, and with a
// write's 422 on a bare field name. The rule is the guard's own (nulPath), applied to every key and
// string of the sections an import writes (value-walk.ts).
import { nulPath, UnstorableTextError } from "../../db/text-guard.ts";
import type { ImportProblems } from "./problems.ts";
import { recordTypes } from "./run.ts";
import { pathOf, walkValuesPausing } from "./value-walk.ts";

const MESSAGE = new UnstorableTextError("").message;

/**
 * Adds a problem for each unstorable key or string in the site's sections; whether there was any. Awaits
 * `pause` as it goes: a document may hold millions of values.
 */
export async function checkText(
  site: Record<string, unknown>,
  problems: ImportProblems,
  pause: () => Promise<void> | undefined,
): Promise<boolean> {
  let found = false;
  await walkValuesPausing(
    site,
    (value, place) => {
      const unstorable =
        (typeof place.key === "string" && nulPath(place.key)) ||
        (typeof value === "string" && nulPath(value));
      if (unstorable) {
        found = true;
        problems.add(pathOf(place), MESSAGE);
      }
      return true;
    },
    recordTypes,
    pause,
  );
  return found;
}
