// Reading the import's YAML text. The `yaml` package parses it into a document that keeps every node's
// place, so that a problem found in any record can name the line it is on; but it reads a 25 MB file in
// some 14 s of CPU. So the text is read first by the fast path (fast-parse.ts: js-yaml, held to `yaml`'s
// reading), and with `yaml` only when the fast path declines it (a syntax error, aliases...) or, once, when
// a problem needs a line. A document that does not parse is refused with each syntax error's line before
// anything else is looked at.
import { type Document, LineCounter, parseDocument } from "yaml";
import { fastParse } from "./fast-parse.ts";
import type { ImportProblems } from "./problems.ts";

export type Path = (string | number)[];

export interface SiteDocument {
  /** The document as plain values (no anchors or tags left). */
  data: unknown;
  /** The 1-based line where the value at `path` starts (or the nearest parent that exists). */
  lineAt(path: Path): number | undefined;
}

/** Aliases are expanded at most this many times: a few anchors cannot blow up into gigabytes. */
const MAX_ALIAS_COUNT = 10_000;

export function readDocument(text: string, problems: ImportProblems): SiteDocument | undefined {
  const fast = fastParse(text);
  if (fast) {
    // Parsed again with `yaml` only if a problem asks for a line, and then once.
    let parsed: Parsed | undefined;
    const lineAt = (path: Path) => {
      parsed ??= parse(text);
      return lineIn(parsed, path);
    };
    return { data: fast, lineAt };
  }
  const parsed = parse(text);
  const { document, lines } = parsed;
  for (const error of document.errors) {
    const line = error.linePos?.[0]?.line ?? lines.linePos(error.pos[0]).line;
    problems.addAtLine(line, firstLine(error.message));
  }
  if (document.errors.length > 0) return undefined;
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    problems.addAtLine(undefined, firstLine(error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  return { data, lineAt: (path) => lineIn(parsed, path) };
}

interface Parsed {
  document: Document.Parsed;
  lines: LineCounter;
}

function parse(text: string): Parsed {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
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
