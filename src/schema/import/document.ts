// Reading the import's YAML text: the `yaml` package parses it into a document that keeps every node's
// place, so that a problem found in any record can name the line it is on. A document that does not
// parse is refused with each syntax error's line before anything else is looked at.
import { LineCounter, parseDocument } from "yaml";
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
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
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
  const lineAt = (path: Path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | null;
      if (node && typeof node === "object" && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return { data, lineAt };
}

function firstLine(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}
