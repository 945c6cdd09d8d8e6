// Strings as strict YAML readers take them. YAML allows raw only its printable set (tab, LF, CR,
// U+0020-U+007E, U+0085, U+00A0-U+D7FF, U+E000-U+FFFD, U+10000 and up): `yaml` writes C1 controls, DEL,
// U+FFFE and U+FFFF raw, which PyYAML and other strict readers refuse. YAML 1.1 readers also take U+0085,
// U+2028 and U+2029 for line breaks and U+FEFF for a byte order mark, so those raw would come back
// changed. A string holding any of these is written double-quoted with every such character escaped.

/** Characters written as escapes: outside YAML's printable set, or read otherwise by YAML 1.1. */
const escaped = /[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;
const escapedEverywhere = new RegExp(escaped.source, "gu");

/** Whether the string holds a character that must be written as an escape. */
export function needsEscapes(value: string): boolean {
  return escaped.test(value);
}

const named: Record<string, string> = {
  "\0": "\\0",
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  "\x1b": "\\e",
  '"': '\\"',
  "\\": "\\\\",
  "\x85": "\\N",
  "\u2028": "\\L",
  "\u2029": "\\P",
};

function escapeOf(char: string): string {
  const known = named[char];
  if (known) return known;
  // Only BMP characters (unpaired surrogates among them) are ever escaped: the rest are printable.
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * The string as one double-quoted YAML scalar on one line: line breaks, tabs, quotes, backslashes and
 * every character `needsEscapes` looks for are escapes, so no reader folds or refuses any of it.
 */
export function quotedWithEscapes(value: string): string {
  const body = value.replace(/["\\\t\n\r]/g, escapeOf).replace(escapedEverywhere, escapeOf);
  return `"${body}"`;
}
