// The import's fast path for reading YAML: `js-yaml` builds plain values straight from the text, some ten
// times faster than `yaml`'s document (which keeps every node's place: 14 s of CPU for a 100,000-entry
// file). It is held to what `yaml` would make of the same text: its scalars resolve by `yaml`'s own core
// schema rules (copied below), and anything the two might read differently is declined, so that the
// caller reads the text with `yaml` instead: any error, an alias (`yaml` bounds their expansion), an
// explicitly tagged number, boolean or null, a key that is not a string, a key whose `:` is more than
// 1,024 characters after its start (`yaml` refuses those, as YAML says, js-yaml does not), a `%`
// directive (a `%YAML 1.1` one changes `yaml`'s schema), or a document that is not a mapping. Lines are
// found with `yaml` too, only when a problem needs one. A document nesting deeper than MAX_DOCUMENT_DEPTH
// is declined and said to be, to be refused: `yaml` would recurse into it until the stack ran out.
import {
  constructFromEvents,
  defineMappingTag,
  defineScalarTag,
  EVENT_ID,
  type Event,
  NOT_RESOLVED,
  parseEvents,
  Schema,
  seqTag,
  strTag,
  YAMLException,
} from "js-yaml";
import { MAX_DOCUMENT_DEPTH } from "./limits.ts";

type Resolve = (source: string) => unknown;

/** A plain scalar tag of `yaml`'s core schema; an explicit tag (`!!int "1"`) is declined. */
function coreScalar(tagName: string, firstChars: string[], rules: [RegExp, Resolve][]) {
  return defineScalarTag(`tag:yaml.org,2002:${tagName}`, {
    implicit: true,
    implicitFirstChars: firstChars,
    resolve: (source, explicit) => {
      if (explicit) return NOT_RESOLVED;
      for (const [test, resolve] of rules) if (test.test(source)) return resolve(source);
      return NOT_RESOLVED;
    },
    identify: () => false,
  });
}

// yaml/dist/schema/common/null.js, core/bool.js, core/int.js, core/float.js (yaml 2), in its order.
const nullTag = coreScalar("null", ["", "~", "n", "N"], [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]);
const boolTag = coreScalar(
  "bool",
  [..."tTfF"],
  [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (source) => source[0] === "t" || source[0] === "T"]],
);
const intTag = coreScalar(
  "int",
  [..."+-0123456789"],
  [
    [/^0o[0-7]+$/, (source) => Number.parseInt(source.substring(2), 8)],
    [/^[-+]?[0-9]+$/, (source) => Number.parseInt(source, 10)],
    [/^0x[0-9a-fA-F]+$/, (source) => Number.parseInt(source.substring(2), 16)],
  ],
);
const floatTag = coreScalar(
  "float",
  [..."+-.0123456789"],
  [
    [
      /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      (source) =>
        source.slice(-3).toLowerCase() === "nan"
          ? Number.NaN
          : source[0] === "-"
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    ],
    [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, Number.parseFloat],
    [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, Number.parseFloat],
  ],
);

/** Mappings with string keys only: `yaml` turns other keys into strings its own way. */
const mapTag = defineMappingTag("tag:yaml.org,2002:map", {
  create: () => ({}) as Record<string, unknown>,
  addPair: (map, key, value) => {
    if (typeof key !== "string" || key === "__proto__") return "a key that is not a plain string";
    map[key] = value;
    return "";
  },
  has: (map, key) => typeof key === "string" && Object.hasOwn(map, key),
  keys: (map) => Object.keys(map),
  get: (map, key) => (typeof key === "string" && Object.hasOwn(map, key) ? map[key] : null),
  identify: () => false,
});

const schema = new Schema([strTag, seqTag, mapTag, nullTag, boolTag, intTag, floatTag]);

/**
 * The document as `yaml` would read it, when js-yaml can be sure of that; undefined otherwise. When it
 * declines because the document nests deeper than MAX_DOCUMENT_DEPTH, `tooDeep` hears the line where.
 */
export function fastParse(
  text: string,
  tooDeep?: (line: number) => void,
): Record<string, unknown> | undefined {
  if (/^%/m.test(text)) return undefined;
  let data: unknown;
  try {
    let events: Event[];
    try {
      events = parseEvents(text, { maxDepth: MAX_DOCUMENT_DEPTH });
    } catch (error) {
      // js-yaml's only word for it is the message.
      if (error instanceof YAMLException && error.reason.startsWith("nesting exceeded maxDepth"))
        tooDeep?.((error.mark?.line ?? 0) + 1);
      throw error;
    }
    if (text.length > MAX_KEY_SPAN && hasLongKey(text, events)) return undefined;
    const documents = constructFromEvents(events, { source: text, schema, maxAliases: 0 });
    if (documents.length !== 1) return undefined;
    data = documents[0];
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  return data as Record<string, unknown>;
}

/** How far an implicit key's `:` may be from the key's start. */
const MAX_KEY_SPAN = 1024;

/** Whether some mapping key is not a scalar within MAX_KEY_SPAN characters of the `:` after it. */
function hasLongKey(text: string, events: readonly Event[]): boolean {
  // Per open node: a mapping's count of children so far (its even ones are keys), -1 for the others.
  const open: number[] = [];
  for (const event of events) {
    const depth = open.length - 1;
    if (event.type === EVENT_ID.POP) {
      open.pop();
      continue;
    }
    const inMapping = depth >= 0 && (open[depth] as number) >= 0;
    const isKey = inMapping && (open[depth] as number) % 2 === 0;
    if (inMapping) open[depth] = (open[depth] as number) + 1;
    if (isKey) {
      if (event.type !== EVENT_ID.SCALAR || event.valueStart < 0) return true;
      let start = event.valueStart;
      if (event.anchorStart >= 0 && event.anchorStart < start) start = event.anchorStart;
      if (event.tagStart >= 0 && event.tagStart < start) start = event.tagStart;
      if (text.indexOf(":", event.valueEnd) - start > MAX_KEY_SPAN) return true;
    }
    if (event.type === EVENT_ID.MAPPING) open.push(0);
    else if (event.type !== EVENT_ID.SCALAR && event.type !== EVENT_ID.ALIAS) open.push(-1);
  }
  return false;
}
