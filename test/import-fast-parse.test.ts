// The import's fast YAML path (src/schema/import/fast-parse.ts) must read a document exactly as `yaml`
// does, or decline it (then `yaml` reads it): checked on documents `yaml` writes the way the export
// writes them (any JSON value, strings that look like numbers, dates or booleans, multi-line and
// non-ASCII text included), and on hand-written YAML that the two parsers could read differently.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument, stringify } from "yaml";
import { siteDocument } from "../bench/import.ts";
import { fastParse } from "../src/schema/import/fast-parse.ts";

/** Whatever the fast path gives is what `yaml` gives (and `yaml` finds no error in it). */
function expectSameReading(text: string): unknown {
  const fast = fastParse(text);
  if (fast === undefined) return undefined;
  const slow = parseDocument(text, { uniqueKeys: true });
  expect(slow.errors.map((error) => error.message)).toEqual([]);
  expect(fast).toStrictEqual(slow.toJS());
  return fast;
}

const exportOptions = { lineWidth: 0, aliasDuplicateObjects: false } as const;

const lookalike = fc.constantFrom(
  "123",
  "-0",
  "0o17",
  "0x1F",
  "0b101",
  "1e400",
  "1_000",
  ".5",
  "+.inf",
  ".NaN",
  "true",
  "yes",
  "off",
  "~",
  "null",
  "",
  "2024-01-01T00:00:00.000Z",
  "2024-01-01",
  "12:30:00",
  "<<",
  "- item",
  "key: value",
  "# not a comment",
  "&anchor",
  "*alias",
  "!tag",
  "%YAML 1.1",
  "---",
  "...",
  "a\nb\n\n c",
  " leading and trailing ",
  "tab\there",
  "quote ' and \" both",
  "é ü 日本 😀",
  "\u0085\u2028",
);

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    lookalike,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("any"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), lookalike), tie("any"), { maxKeys: 4 }),
  ),
})).any;

describe("the import's fast YAML path", () => {
  it("reads what `yaml` writes as `yaml` reads it", () => {
    let read = 0;
    fc.assert(
      fc.property(value, fc.boolean(), (content, folded) => {
        const text = stringify({ format: "cms-site/1", content }, folded ? {} : exportOptions);
        if (expectSameReading(text) !== undefined) read++;
      }),
      { numRuns: 2000 },
    );
    // Declining is allowed, but not as a habit: documents like the export's take the fast path.
    expect(read).toBeGreaterThan(1900);
  });

  it("reads the bench's generated site as `yaml` does", () => {
    expect(expectSameReading(siteDocument(200))).toBeDefined();
  });

  it("declines, or reads as `yaml` does, YAML the two parsers could read differently", () => {
    const texts = [
      "a: 0b101\nb: 1e400\nc: 1_000\nd: 0o17\ne: 0x1F\nf: -0\ng: +.inf\nh: .NaN\ni: 007\nj: +5",
      "a: yes\nb: on\nc: 2024-01-01\nd: 2024-01-01T00:00:00Z\ne: 12:30:00\nf: ~\ng:\nh: Null",
      "a: &x [1, 2]\nb: *x",
      "a: &x 1\nb: 2",
      "%YAML 1.1\n---\na: yes",
      "a: !!int 5",
      "a: !!str 5",
      "a: !!float '1.5'",
      "a: !custom 5",
      "a: ! 5",
      "1: one\ntrue: t",
      "? [a, b]\n: c",
      "null: x",
      "__proto__: {polluted: true}",
      "<<: {b: 1}\nc: 2",
      "a: 1\na: 2",
      "a: >\n  folded\n  text\n\n  more\nb: |-\n  kept\n   indented\nc: |+\n  trailing\n\n",
      "a: 'it''s'\nb: \"\\u00e9\\x41\\t\\N\\_\"\nc: \"line\\\n  joined\"",
      "a:\n- 1\n- - 2\n  - 3\nb: [x, {y: z}, ]\nc: {}",
      "a: plain\n  continued\n\n  paragraph",
      "a: b: c",
      "a:\n\tb: 1",
      "- a\n- b",
      "just text",
      "",
      "# only a comment",
      "a: 1\n---\nb: 2",
      "a: 1\n...\n",
      `${"k".repeat(1100)}: v`,
      `"a: ${"k".repeat(1100)}": v`,
      `- a${" ".repeat(1100)}: v`,
      `[x, ${"k".repeat(1100)}: v]`,
      "a: [1, 2\nb: 3",
      "\ufeffa: 1",
      "a: 1 # comment\nb: '#not'",
    ];
    for (const text of texts) expectSameReading(text);
    expect(fastParse("a: &x [1]\nb: *x")).toBeUndefined();
    expect(fastParse("a: 1\na: 2")).toBeUndefined();
    expect(fastParse(`${"k".repeat(1100)}: v`)).toBeUndefined();
    // A long value is no long key: the fast path takes it.
    expect(expectSameReading(`a: "${"x: y ".repeat(400)}"\nb: ${"z".repeat(2000)}:z`)).toBeDefined();
  });
});
