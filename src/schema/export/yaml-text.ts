// The document is written as text parts that together make one YAML document: each part is produced by
// the `yaml` package (so quoting, block scalars and escapes are its, never ours) and only shifted right
// as a whole, which keeps every line, block scalars included, valid at its new depth. A long sequence is
// thus written batch by batch under a key written once.
import { stringify } from "yaml";

const options = {
  // No folding of long lines: Liquid sources and values come back exactly as they were, line for line.
  lineWidth: 0,
  // Two equal objects are two copies, never an anchor and an alias that a reader must resolve.
  aliasDuplicateObjects: false,
} as const;

function indented(text: string, indent: number): string {
  if (indent === 0) return text;
  const pad = " ".repeat(indent);
  // Empty lines stay empty: inside a block scalar they are empty lines whatever their depth.
  return text
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}

/** `key: value` (a whole value, written at once), indented by `indent` spaces. */
export function yamlEntry(key: string, value: unknown, indent = 0): string {
  return indented(stringify({ [key]: value }, options), indent);
}

/** `key:` alone, for a value whose items follow in later parts. */
export function yamlKey(key: string, indent = 0): string {
  return `${" ".repeat(indent)}${stringify(key, options).trimEnd()}:\n`;
}

/** Items of a block sequence (`- ...`), indented by `indent` spaces: one batch of a longer sequence. */
export function yamlItems(items: readonly unknown[], indent: number): string {
  return items.length === 0 ? "" : indented(stringify(items, options), indent);
}
