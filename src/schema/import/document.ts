// Reading the import's YAML text. The `yaml` package parses it into a document that keeps every node's
// place, so that a problem found in any record can name the line it is on; but it reads a 25 MB file in
// some 14 s of CPU. So the text is read first by the fast path (fast-parse.ts: js-yaml, held to `yaml`'s
// reading), and with `yaml` only when the fast path declines it (a syntax error, aliases...) or, once, when
// a problem needs a line. A document that does not parse is refused with each syntax error's line before
// anything else is looked at; so is one nesting deeper than MAX_DOCUMENT_DEPTH (limits.ts), in the words
// of the nesting rule, never a stack overflow's, one holding values no JSON has (plain-values.ts), and one
// whose aliases expand it past its own size or into itself (alias-expansion.ts).
// This runs in a worker thread (parse-worker.ts), never on the server's event loop: reading is CPU work
// whose cost the sender chooses. `yaml` reads with `uniqueKeys` off and the keys are compared here, once
// each (unique-keys.ts): its own check compares each key with every earlier one of its mapping, which
// took 43 s and more for one mapping of 50,000 keys.
import { type Document, LineCounter, parseDocument } from "yaml";
import { MAX_JSON_DEPTH } from "../json-depth.ts";
import { expandedValues } from "./alias-expansion.ts";
import { fastParse } from "./fast-parse.ts";
import { foreignValues } from "./plain-values.ts";
import type { ImportProblems } from "./problems.ts";
import { duplicateKeys } from "./unique-keys.ts";
import { MAX_MAPPING_KEYS, wideMappings } from "./wide-mappings.ts";

export type Path = (string | number)[];

/** Aliases are expanded at most this many times: a few anchors cannot blow up into gigabytes. */
const MAX_ALIAS_COUNT = 10_000;
const ALIAS_ALLOWANCE = 1_000_000;
const ALIAS_CYCLE = "must not alias a list or mapping inside itself";
const ALIASES_TOO_MANY =
  "must not hold, once its aliases are expanded, more values than it has characters and a million more: write the repeated values out";

const TOO_DEEP = `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
/** V8's words for a stack overflow; another RangeError (a string too long) is not a nesting problem. */
const STACK_OVERFLOW = /call stack size exceeded/i;

function overflowed(error: unknown): boolean {
  return error instanceof RangeError && STACK_OVERFLOW.test(error.message);
}

/** The document as plain values (no anchors or tags left), or undefined with its problems added. */
export function readDocument(text: string, problems: ImportProblems): { data: unknown } | undefined {
  let tooDeepAt: number | undefined;
  const fast = fastParse(text, (line) => {
    tooDeepAt = line;
  });
  // Parsed again with `yaml` only if a problem asks for lines (linesAt).
  if (fast) return wideRefused(fast, problems) ? undefined : { data: fast };
  if (tooDeepAt !== undefined) {
    problems.addAtLine(tooDeepAt, TOO_DEEP);
    return undefined;
  }
  let parsed: Parsed;
  try {
    parsed = parse(text);
  } catch (error) {
    if (!overflowed(error)) throw error;
    problems.addAtLine(undefined, TOO_DEEP);
    return undefined;
  }
  const { document, lines } = parsed;
  let saidTooDeep = false;
  const errors = [...document.errors, ...duplicateKeys(document)];
  for (const error of errors) {
    const line = error.linePos?.[0]?.line ?? lines.linePos(error.pos[0]).line;
    // `yaml` catches the stack overflow of a collection nested too deep, at each level it unwinds (and
    // calls it, as any error inside a collection, RESOURCE_EXHAUSTION).
    // In a worker thread it may surface under another code too.
    const tooDeep = STACK_OVERFLOW.test(error.message);
    if (!tooDeep) problems.addAtLine(line, firstLine(error.message));
    else if (!saidTooDeep) problems.addAtLine(line, TOO_DEEP);
    saidTooDeep ||= tooDeep;
  }
  if (errors.length > 0) return undefined;
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // A stack overflow again; otherwise `yaml`'s own words (too many aliases, say).
    const message = overflowed(error)
      ? TOO_DEEP
      : firstLine(error instanceof Error ? error.message : String(error));
    problems.addAtLine(undefined, message);
    return undefined;
  }
  // A document of n characters holds fewer than n values; through its aliases it may hold as many again,
  // and a million more (a list shared by every post of a small export, as Ruby's YAML writes it).
  const most = text.length + ALIAS_ALLOWANCE;
  const values = expandedValues(data, most);
  if (values === "cycle" || values > most) {
    problems.addAtLine(undefined, values === "cycle" ? ALIAS_CYCLE : ALIASES_TOO_MANY);
    return undefined;
  }
  const foreign = foreignValues(data);
  for (const { path, tag } of foreign)
    problems.addAtPathLine(
      path,
      lineIn(parsed, path),
      `must be text, a number, true, false, null, a list or a mapping, not ${tag}`,
    );
  if (foreign.length > 0) return undefined;
  return wideRefused(data, problems) ? undefined : { data };
}

/** Whether the document holds a mapping wider than MAX_MAPPING_KEYS (wide-mappings.ts): each a problem. */
function wideRefused(data: unknown, problems: ImportProblems): boolean {
  const wide = wideMappings(data);
  for (const path of wide)
    problems.addAtPathLine(
      path,
      undefined,
      `must not hold more than ${MAX_MAPPING_KEYS.toLocaleString("en-US")} keys in one mapping`,
    );
  return wide.length > 0;
}

/** The 1-based line where the value at each path starts (or the nearest parent that exists). */
export function linesAt(text: string, paths: readonly Path[]): (number | undefined)[] {
  const parsed = parse(text);
  return paths.map((path) => lineIn(parsed, path));
}

interface Parsed {
  document: Document.Parsed;
  lines: LineCounter;
}

function parse(text: string): Parsed {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  return { document, lines };
}

function lineIn({ document, lines }: Parsed, path: Path): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | null;
    if (node && typeof node === "object" && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}
