// The document is written as text parts that together make one YAML document: each part is produced by
// the `yaml` package (so quoting, block scalars and escapes are its, never ours) and only shifted right
// as a whole, which keeps every line, block scalars included, valid at its new depth. A long sequence is
// thus written batch by batch under a key written once. Strings `yaml` would leave unreadable to a strict
// reader are the exception: strict-strings.ts writes those.
import { type ScalarTag, stringify, type Tags } from "yaml";
import { needsEscapes, quotedWithEscapes } from "./strict-strings.ts";

/** The core schema's string tag, writing the strings that need escapes as escaped double-quoted text. */
function strictStrings(tags: Tags): Tags {
  return tags.map((tag) => {
    const stringTag = tag as ScalarTag;
    if (stringTag.tag !== "tag:yaml.org,2002:str" || !stringTag.stringify) return tag;
    const written = stringTag.stringify.bind(stringTag);
    return {
      ...stringTag,
      stringify: (item, ctx, onComment, onChompKeep) =>
        typeof item.value === "string" && needsEscapes(item.value)
          ? quotedWithEscapes(item.value)
          : written(item, ctx, onComment, onChompKeep),
    } satisfies ScalarTag;
  });
}

const options = {
  // No folding of long lines: Liquid sources and values come back exactly as they were, line for line.
  lineWidth: 0,
  // Two equal objects are two copies, never an anchor and an alias that a reader must resolve.
  aliasDuplicateObjects: false,
  customTags: strictStrings,
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
