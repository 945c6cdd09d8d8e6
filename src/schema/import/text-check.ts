// Text the database cannot store (src/db/text-guard.ts: a NUL, which PostgreSQL refuses, or an unpaired
// surrogate, which is no Unicode text) is refused while the file is checked, at its place in the
// document. Left to the guard, a dry run would pass what the import's writes then refuse, and with a
// write's 422 on a bare field name. The rule is the guard's own (nulPath), applied to every key and
// string of the sections an import writes; the walk keeps no recursion (a document may nest deep) and
// looks into each object once (every alias of a YAML node is the same object).
import { nulPath, UnstorableTextError } from "../../db/text-guard.ts";
import type { Path } from "./document.ts";
import type { ImportProblems } from "./problems.ts";
import { recordTypes } from "./run.ts";

const MESSAGE = new UnstorableTextError("").message;

interface Place {
  key: string | number;
  parent: Place | undefined;
}

/** Adds a problem for each unstorable key or string in the site's sections; whether there was any. */
export function checkText(site: Record<string, unknown>, problems: ImportProblems): boolean {
  let found = false;
  const report = (key: string | number, parent: Place | undefined) => {
    found = true;
    problems.add(pathOf({ key, parent }), MESSAGE);
  };
  // Objects still to look into, on a stack: each one's children go on it in reverse, so that problems
  // come in document order. Only objects get a place of their own; a string is checked where it is met.
  const pending: [object, Place][] = [];
  const seen = new Set<object>();
  const meet = (
    value: unknown,
    key: string | number,
    parent: Place | undefined,
    later: [object, Place][],
  ) => {
    if (typeof value === "string") {
      if (nulPath(value)) report(key, parent);
    } else if (typeof value === "object" && value !== null && !seen.has(value))
      later.push([value, { key, parent }]);
  };
  const sections: [object, Place][] = [];
  for (const type of recordTypes) meet(site[type], type, undefined, sections);
  for (let index = sections.length - 1; index >= 0; index--) pending.push(sections[index] as [object, Place]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, place] = next;
    // Looked into where it is met first in document order (the anchor, not a later alias of it).
    if (seen.has(value)) continue;
    seen.add(value);
    const children: [object, Place][] = [];
    if (Array.isArray(value)) for (const [index, item] of value.entries()) meet(item, index, place, children);
    else
      for (const [key, item] of Object.entries(value)) {
        if (nulPath(key)) report(key, place);
        meet(item, key, place, children);
      }
    for (let index = children.length - 1; index >= 0; index--)
      pending.push(children[index] as [object, Place]);
  }
  return found;
}

function pathOf(place: Place | undefined): Path {
  const path: Path = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path;
}
