// fast-check arbitraries for hostile request bodies: wrong types, huge strings, deep nesting,
// prototype-pollution keys, unicode and control characters, SQL and Liquid metacharacters, raw bytes that
// are not UTF-8 or not JSON. Objects are kept as key/value pairs and written out by `toJson`, so that keys
// like `__proto__` reach the server as ordinary keys (and duplicate keys are possible).
import fc from "fast-check";

/** A JSON object as its ordered key/value pairs. */
export class Pairs {
  constructor(readonly entries: [string, unknown][]) {}
}

/** `depth` nested arrays or objects around 1, written out without recursion. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly object: boolean,
  ) {}
}

export function toJson(value: unknown): string {
  if (value instanceof Deep) {
    return value.object
      ? `${'{"a":'.repeat(value.depth)}1${"}".repeat(value.depth)}`
      : `${"[".repeat(value.depth)}1${"]".repeat(value.depth)}`;
  }
  if (value instanceof Pairs) {
    return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`).join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  return JSON.stringify(value) ?? "null";
}

/** The pairs of a plain object (one level). */
export const pairsOf = (object: Record<string, unknown>) => new Pairs(Object.entries(object));

export const prototypeKeys = [
  "__proto__",
  "constructor",
  "prototype",
  "constructor.prototype",
  "__defineGetter__",
  "toString",
  "valueOf",
  "hasOwnProperty",
];

const metacharacters = [
  "' OR '1'='1",
  '\'; DROP TABLE "Entry"; --',
  '" OR 1=1 --',
  "%",
  "_%_",
  "\\",
  "\\'",
  "`",
  "$1",
  "?",
  "{{ x }}",
  "{{",
  "}}",
  "{%",
  "{% raw %}",
  "{% endraw %}",
  "{% for i in (1..99999999) %}{% for j in (1..99999999) %}x{% endfor %}{% endfor %}",
  "{% include '../../../../etc/passwd' %}",
  "{% render '/etc/passwd' %}",
  "{{ 'a' | append: 'b' | upcase }}",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\ufeff",
  "\u202e",
  "\u0007\u001b[31m",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "ünïcödé-handle",
  "ΑΒΓ-δ",
  "日本語",
  "👩‍👩‍👧‍👦",
  "../..",
  "/etc/passwd",
  "C:\\Windows",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  "//evil.example",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "null",
  "true",
  "[]",
  "{}",
  "",
  " ",
  "acct_",
  "clctn_",
  "cnety_x",
  ":handle",
  "a/:handle/:handle",
];

/** Strings from each hostile family; a rare one is ~1 MB. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...metacharacters) },
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,30}$/) },
  { weight: 2, arbitrary: fc.integer({ min: 90, max: 70_000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.constant(`${"\u00e9".repeat(300_000)}{{`) },
);

export const hostileKey: (known: string[]) => fc.Arbitrary<string> = (known) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...prototypeKeys) },
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: hostileString.filter((key) => key.length < 200) },
  );

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, 5e-324, 1.5),
);

/** Any JSON value of hostile shape and content, a few levels deep (or very deep, rarely). */
export function hostileValue(known: string[]): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { weight: 6, arbitrary: hostileString },
      { weight: 3, arbitrary: numbers },
      { weight: 2, arbitrary: fc.boolean() },
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
      {
        weight: 2,
        arbitrary: fc
          .array(fc.tuple(hostileKey(known), tie("value")), { maxLength: 4 })
          .map((entries) => new Pairs(entries)),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: 20, max: 3_000 }), fc.boolean())
          .map(([depth, object]) => new Deep(depth, object)),
      },
    ),
  }));
  return value;
}

/** Raw request bodies that are not a JSON object, or not UTF-8, with the content type they are sent as. */
export const rawBody: fc.Arbitrary<{ bytes: Uint8Array; type: string | null }> = fc.record({
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    fc
      .constantFrom(
        "[]",
        "null",
        "1",
        '"string"',
        "true",
        "{",
        '{"a":',
        '{"handle": "x",}',
        "{'handle': 'x'}",
        '{"a":1}{"b":2}',
        "\ufeff{}",
        "[".repeat(100_000),
        `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
      )
      .map((text) => new TextEncoder().encode(text)),
    // Invalid UTF-8 inside an otherwise valid object: lone continuation bytes, overlongs, a lone surrogate.
    fc
      .constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff, 0xfe], [0xf8, 0x88, 0x80, 0x80, 0x80])
      .map(
        (bad) =>
          new Uint8Array([
            ...new TextEncoder().encode('{"title":"a'),
            ...bad,
            ...new TextEncoder().encode('","handle":"h'),
            ...bad,
            ...new TextEncoder().encode('","name":"n","html":"x"}'),
          ]),
      ),
  ),
  type: fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin1",
    "text/plain",
    "multipart/form-data",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    null,
  ),
});

const multipartBoundary = "fuzz-boundary";

/**
 * multipart/form-data uploads written byte by byte, so that names may hold quotes, CR/LF, NUL, `..` or
 * unpaired surrogates, and parts may be missing, doubled or of any type.
 */
export const multipartUpload: fc.Arbitrary<{ bytes: Uint8Array; type: string | null }> = fc
  .record({
    filename: fc.oneof(
      hostileString.filter((name) => name.length < 5_000),
      fc.constantFrom("x.png", "a.pdf", "../../x.txt", 'q"x.txt', "a\r\nb.txt"),
    ),
    path: fc.option(hostileString.filter((path) => path.length < 5_000)),
    partType: fc.constantFrom(
      "text/plain",
      "image/png",
      "application/pdf",
      "image/svg+xml",
      "text/html",
      "",
      "x",
    ),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.constant(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      fc.constant(new TextEncoder().encode("%PDF-1.7\n")),
      fc.constant(
        new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
      ),
    ),
    fileField: fc.constantFrom("file", "file", "File", "upload", "__proto__"),
    twice: fc.boolean(),
  })
  .map(({ filename, path, partType, bytes, fileField, twice }) => {
    const encoder = new TextEncoder();
    const part = (headers: string, content: Uint8Array) => [
      ...encoder.encode(`--${multipartBoundary}\r\n${headers}\r\n\r\n`),
      ...content,
      ...encoder.encode("\r\n"),
    ];
    const file = part(
      `Content-Disposition: form-data; name="${fileField}"; filename="${filename}"${partType ? `\r\nContent-Type: ${partType}` : ""}`,
      bytes,
    );
    const folder =
      path === null ? [] : part('Content-Disposition: form-data; name="path"', encoder.encode(path));
    return {
      bytes: new Uint8Array([
        ...file,
        ...(twice ? file : []),
        ...folder,
        ...encoder.encode(`--${multipartBoundary}--\r\n`),
      ]),
      type: `multipart/form-data; boundary=${multipartBoundary}`,
    };
  });
