// The site import's limits, through the real server (docs/export-format.md, Import): a .tar.gz is held to
// them as it inflates, so that a small archive cannot unpack into gigabytes of memory or disk (site.yaml
// to the YAML document's 128 MB, each asset file to the upload limit, the whole to 1152 MB), answered
// 413 naming the member with nothing written and nothing left staged. Text the database cannot store is
// refused while the file is checked, so that a dry run refuses what the import would, with the import's
// own 422 naming the place in the document; so are a document nesting too deep (in the nesting rule's
// words, never a stack overflow's) and values that YAML's tags make and JSON has not.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArchive } from "../src/schema/import/archive.ts";
import { archiveLimits, IMPORT_FILES_LIMIT } from "../src/schema/import/limits.ts";
import { newInstallationId } from "../src/storage/installation.ts";
import { createLocalStorage } from "../src/storage/local.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

/** Small, so that an asset past it is quick to send; the document's and the total's limits are fixed. */
const UPLOAD_LIMIT = 65_536;
const MB = 1024 * 1024;

let server: TestServer;
let account: TestAccount;
let client: Api;

beforeAll(async () => {
  server = await startServer({ CMS_UPLOAD_LIMIT: String(UPLOAD_LIMIT) });
  account = await createAccount(server, "Limits");
  client = api(server, account);
  await expectCreated(
    client.post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
      blueprint: { fields: [{ handle: "summary", type: "text" }] },
    }),
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

// --- A .tar.gz written by hand: a bomb's header tells the truth about its gigabytes. ---

/** A ustar header of a regular file of `size` bytes. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100);
  header.write("0000644\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  header.write("00000000000\0", 136);
  header.write("        ", 148);
  header.write("0", 156);
  header.write("ustar\u000000", 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return header;
}

const BLOCK = 16 * MB;
const blocks = new Map<number, Buffer>();

/** 16 MB of one byte, compressed once (some 16 KB). */
function block(fill: number): Buffer {
  if (!blocks.has(fill)) blocks.set(fill, gzipSync(Buffer.alloc(BLOCK, fill)));
  return blocks.get(fill) as Buffer;
}

type Member = { name: string; bytes: Buffer | string } | { name: string; size: number; fill: number };

/**
 * A .tar.gz as gzip members one after another, which gunzip reads as one stream: each file's header, its
 * bytes (given, or `size` bytes of `fill` from the compressed blocks), its padding, then the end blocks.
 */
function targz(members: Member[]): Buffer {
  const parts: Buffer[] = [];
  for (const member of members) {
    const bytes = "bytes" in member ? Buffer.from(member.bytes) : undefined;
    const size = bytes ? bytes.length : (member as { size: number }).size;
    parts.push(gzipSync(tarHeader(member.name, size)));
    if (bytes) parts.push(gzipSync(bytes));
    else
      for (let left = size; left > 0; left -= BLOCK)
        parts.push(
          left >= BLOCK
            ? block((member as { fill: number }).fill)
            : gzipSync(Buffer.alloc(left, (member as { fill: number }).fill)),
        );
    parts.push(gzipSync(Buffer.alloc((512 - (size % 512)) % 512)));
  }
  parts.push(gzipSync(Buffer.alloc(1024)));
  return Buffer.concat(parts);
}

/** The members, then the header of one whose bytes never come: only its header can refuse it. */
function headerOnly(members: Member[], name: string, size: number): Buffer {
  const whole = targz(members);
  // Without the end blocks (the last gzip member, 1024 zero bytes compressed).
  const end = gzipSync(Buffer.alloc(1024));
  return Buffer.concat([whole.subarray(0, whole.length - end.length), gzipSync(tarHeader(name, size))]);
}

function importUrl(query = ""): string {
  return `${server.url}/v1/accounts/${account.account_id}/import${query}`;
}

/** POST …/import with the .tar.gz as the multipart part `file`. */
function importMultipart(bytes: Buffer, query = ""): Promise<ApiResponse> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/gzip" }), "site.tar.gz");
  return request(importUrl(query), {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
}

/** POST …/import with the .tar.gz as an application/gzip body. */
function importGzip(bytes: Buffer, query = ""): Promise<ApiResponse> {
  return request(importUrl(query), {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/gzip" },
    body: new Uint8Array(bytes),
  });
}

/** The server's staged files (uploads and archive members on their way to storage). */
function staged(): string[] {
  return readdirSync(join(server.env.CMS_DATA_DIR as string, "assets", ".staging"));
}

function tooLarge(path: string, message: string) {
  return { error: "Request body too large", details: [{ path, message }] };
}

const siteYaml = (templates: string) => `format: cms-site/1\ntemplates:\n${templates}\ncomplete: true\n`;

async function templateHandles(): Promise<string[]> {
  const response = await client.get("/templates?per_page=100");
  expect(response.status, response.text).toBe(200);
  return (response.body.data ?? response.body).map((template: { handle: string }) => template.handle);
}

describe("a .tar.gz is held to the import's limits as it inflates", () => {
  it("a site.yaml inflating to 2.2 GB is refused with a 413 naming it, quickly, by both transports, dry run or not", async () => {
    const bomb = targz([{ name: "site.yaml", size: 2200 * MB, fill: 0x20 }]);
    expect(bomb.length).toBeLessThan(3 * MB);
    for (const send of [importMultipart, importGzip])
      for (const query of ["?dry_run=true", ""]) {
        const started = Date.now();
        const response = await send(bomb, query);
        expect(response.body, `${send.name}${query}: ${response.text}`).toEqual(
          tooLarge("site.yaml", "must be at most 128 MB once inflated (the YAML document's limit)"),
        );
        expect(response.status).toBe(413);
        expect(Date.now() - started).toBeLessThan(5_000);
      }
    // The server lives on, and answers as before.
    const health = await request(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(staged()).toEqual([]);
  }, 60_000);

  it("a site.yaml one byte past 128 MB is refused; the limit counts inflated bytes, not compressed ones", async () => {
    const text = siteYaml("  []");
    const archive = targz([{ name: "site.yaml", bytes: `${text}#${" ".repeat(128 * MB - text.length)}` }]);
    expect(archive.length).toBeLessThan(2 * MB);
    const response = await importGzip(archive, "?dry_run=true");
    expect(response.body, response.text).toEqual(
      tooLarge("site.yaml", "must be at most 128 MB once inflated (the YAML document's limit)"),
    );
    expect(response.status).toBe(413);
  }, 60_000);

  it("an asset file past the upload limit is refused with a 413 naming it; nothing is written or left staged", async () => {
    // One exactly at the limit is imported.
    const full = Buffer.alloc(UPLOAD_LIMIT, 0x61);
    const sha256 = createHash("sha256").update(full).digest("hex");
    const fits = await importMultipart(
      targz([
        {
          name: "site.yaml",
          bytes:
            "format: cms-site/1\nassets:\n" +
            `  - { path: docs, filename: full.txt, content_type: text/plain, size: ${UPLOAD_LIMIT}, sha256: "${sha256}" }\n` +
            "complete: true\n",
        },
        { name: "assets/docs/full.txt", bytes: full },
      ]),
    );
    expect(fits.status, fits.text).toBe(200);
    expect(fits.body.created.assets).toBe(1);
    expect(staged()).toEqual([]);

    const document = siteYaml("  - { handle: kept-out, title: Kept out, html: '<p>x</p>' }");
    // A 1 GB bomb of zeros, and a file one byte past the limit.
    for (const asset of [
      { name: "assets/docs/bomb.bin", size: 1024 * MB, fill: 0 },
      { name: "assets/docs/big.txt", size: UPLOAD_LIMIT + 1, fill: 0x61 },
    ]) {
      const started = Date.now();
      const response = await importMultipart(targz([{ name: "site.yaml", bytes: document }, asset]));
      expect(response.body, response.text).toEqual(
        tooLarge(asset.name, `must be at most ${UPLOAD_LIMIT} bytes once inflated (the upload limit)`),
      );
      expect(response.status).toBe(413);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(staged()).toEqual([]);
    }
    expect(await templateHandles()).not.toContain("kept-out");
  }, 60_000);

  it("an archive of more asset files than the limit is refused at the first one past it, nothing left staged", async () => {
    // The server's limit is 20,000 files, each staged: too slow to send here. The same reading, on the real
    // local storage, with a limit of 3.
    expect(archiveLimits(UPLOAD_LIMIT).files).toBe(IMPORT_FILES_LIMIT);
    expect(IMPORT_FILES_LIMIT).toBe(20_000);
    const root = mkdtempSync(join(tmpdir(), "cms-files-limit-"));
    try {
      const storage = await createLocalStorage(root, newInstallationId());
      const files = ["a", "b", "c", "d", "e"].map((name) => ({ name: `assets/x/${name}.txt`, bytes: name }));
      const archive = targz([{ name: "site.yaml", bytes: "format: cms-site/1\n" }, ...files]);
      const limits = { ...archiveLimits(UPLOAD_LIMIT), files: 3 };
      await expect(readArchive(Readable.from([archive]), storage, limits)).rejects.toMatchObject({
        status: 413,
        details: [{ path: "file", message: "must hold at most 3 asset files (cms import takes more)" }],
      });
      expect(readdirSync(join(root, ".staging"))).toEqual([]);
      const fits = await readArchive(Readable.from([archive]), storage, { ...limits, files: 5 });
      expect([...fits.files.keys()]).toEqual(["x/a.txt", "x/b.txt", "x/c.txt", "x/d.txt", "x/e.txt"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("an archive still being staged at the request's deadline stops there: a 503, and nothing left staged", async () => {
    // Thousands of small files take seconds to stage (about a millisecond each; several seconds even at a
    // third of that on a fast disk), and no query is made meanwhile that the deadline would refuse.
    const timeoutMs = 500;
    const files = Array.from({ length: 15_000 }, (_, index) => ({
      name: `assets/many/f${index}.txt`,
      bytes: `file ${index}`,
    }));
    const archive = targz([{ name: "site.yaml", bytes: "format: cms-site/1\n" }, ...files]);
    const twin = await server.twin({
      CMS_UPLOAD_LIMIT: String(UPLOAD_LIMIT),
      REQUEST_TIMEOUT_MS: String(timeoutMs),
    });
    try {
      const response = await request(`${twin.url}/v1/accounts/${account.account_id}/import?dry_run=true`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.token}`, "content-type": "application/gzip" },
        body: new Uint8Array(archive),
      });
      const answered = Date.now();
      expect(response.body, response.text).toEqual({
        error: `Request timed out after ${timeoutMs} ms`,
        details: [],
      });
      expect(response.status).toBe(503);
      // Staging stopped at the deadline and removed its files, long before all of them could be staged.
      while (staged().length > 0 && Date.now() - answered < 10_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(Date.now() - answered).toBeLessThan(1_500);

      // Work cut short by the deadline is no unexpected error.
      expect(twin.output.join("")).not.toContain("unexpected error");
    } finally {
      await twin.stop();
    }
  }, 60_000);

  it("an asset file given twice is imported from its later member, and the earlier is not left staged", async () => {
    const later = Buffer.from("later bytes");
    const sha256 = createHash("sha256").update(later).digest("hex");
    const response = await importMultipart(
      targz([
        {
          name: "site.yaml",
          bytes:
            "format: cms-site/1\nassets:\n" +
            `  - { path: twice, filename: t.txt, content_type: text/plain, size: ${later.length}, sha256: "${sha256}" }\n` +
            "complete: true\n",
        },
        { name: "assets/twice/t.txt", bytes: "earlier" },
        { name: "assets/twice/t.txt", bytes: later },
      ]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.created.assets).toBe(1);
    expect(staged()).toEqual([]);
  });

  it("members adding up past 1152 MB inflated are refused as they inflate, without blocking the server", async () => {
    // 73 members of 16 MB that the import skips: none is over a limit of its own; together they are.
    const members: Member[] = [{ name: "site.yaml", bytes: siteYaml("  []") }];
    for (let index = 0; index < 73; index++)
      members.push({ name: `junk/${index}.bin`, size: BLOCK, fill: 0 });
    const archive = targz(members);
    const started = Date.now();
    const answer = importGzip(archive, "?dry_run=true");
    // The server answers other requests meanwhile: inflating does not hold its event loop.
    const pings: number[] = [];
    while (Date.now() - started < 500) {
      const ping = Date.now();
      expect((await request(`${server.url}/healthz`)).status).toBe(200);
      pings.push(Date.now() - ping);
    }
    const response = await answer;
    expect(response.body, response.text).toEqual(
      tooLarge("file", "must be at most 1152 MB once inflated (128 MB of site.yaml and 1 GB of asset files)"),
    );
    expect(response.status).toBe(413);
    // What matters is that the server answered meanwhile; how long the whole took depends on the machine's
    // load, and a bound on it failed under load while telling nothing the pings do not.
    expect(Math.max(...pings)).toBeLessThan(1_000);

    // A header that alone says it passes the total is refused before its bytes are read: here they never
    // come, which would otherwise be a malformed archive.
    const refused = await importGzip(
      headerOnly([{ name: "site.yaml", bytes: siteYaml("  []") }], "junk/huge.bin", 4000 * MB),
      "?dry_run=true",
    );
    expect(refused.body, refused.text).toEqual(
      tooLarge("file", "must be at most 1152 MB once inflated (128 MB of site.yaml and 1 GB of asset files)"),
    );
  }, 60_000);

  it("a member whose header says it is past its limit is refused before its bytes are read", async () => {
    for (const [name, size, message] of [
      ["site.yaml", 128 * MB + 1, "must be at most 128 MB once inflated (the YAML document's limit)"],
      [
        "assets/docs/big.bin",
        UPLOAD_LIMIT + 1,
        `must be at most ${UPLOAD_LIMIT} bytes once inflated (the upload limit)`,
      ],
    ] as const) {
      const response = await importGzip(headerOnly([], name, size), "?dry_run=true");
      expect(response.body, response.text).toEqual(tooLarge(name, message));
      expect(response.status).toBe(413);
    }
  });

  it("`cms import` takes an asset file past the upload limit, and holds site.yaml to what a string holds", async () => {
    const file = join(tmpdir(), `cms-bomb-${process.pid}.tar.gz`);
    try {
      // The operator's own file, as `cms export` writes it from an installation with a larger upload limit.
      const big = Buffer.alloc(UPLOAD_LIMIT + 1, 0x62);
      const sha256 = createHash("sha256").update(big).digest("hex");
      const document =
        "format: cms-site/1\nassets:\n" +
        `  - { path: cli, filename: big.txt, content_type: text/plain, size: ${big.length}, sha256: "${sha256}" }\n` +
        "complete: true\n";
      writeFileSync(
        file,
        targz([
          { name: "site.yaml", bytes: document },
          { name: "assets/cli/big.txt", bytes: big },
        ]),
      );
      const taken = await cms(server, ["import", "--account", account.account_id, file, "--dry-run"]);
      expect(taken.stderr, taken.stdout).not.toContain("once inflated");
      expect(taken.stdout).toContain("assets: 1 would be created");
      expect(taken.code, taken.stderr).toBe(0);

      writeFileSync(file, targz([{ name: "site.yaml", size: 2200 * MB, fill: 0x20 }]));
      const bomb = await cms(server, ["import", "--account", account.account_id, file, "--dry-run"]);
      expect(bomb.stderr).toContain(
        "cms: site.yaml must be at most 511 MB once inflated (the YAML document's limit)",
      );
      expect(bomb.code).toBe(1);
    } finally {
      rmSync(file, { force: true });
    }
    expect(staged()).toEqual([]);
  }, 60_000);

  it("a document whose aliases expand it past its own size, or into itself, is refused at once", async () => {
    const items = Array.from({ length: 20_000 }, (_, index) => index).join(", ");
    const aliases = (count: number) => Array.from({ length: count }, () => "*a").join(", ");
    const entries = Array.from(
      { length: 1_000 },
      (_, index) =>
        `    - { handle: e${index}, title: E, values: { data: ${index === 0 ? `&a [${items}]` : "*a"} } }`,
    ).join("\n");
    const cyclic =
      "navigations:\n  - handle: main\n    title: Main\n    items: &i\n      - { title: X, url: /x, children: *i }\n";
    for (const [document, message] of [
      // Under a key the import ignores: each walk of it took 22 s when every alias was walked again.
      [
        `format: cms-site/1\njunk:\n  base: &a [${items}]\n  many: [${aliases(5_000)}]\ncomplete: true\n`,
        TOO_MANY,
      ],
      // In the records written: 20 million values from 190 KB, 15 s and 450 MB of rows before.
      [`format: cms-site/1\nentries:\n  blog:\n${entries}\ncomplete: true\n`, TOO_MANY],
      // A navigation's items inside themselves: a masked 500 before.
      [`format: cms-site/1\n${cyclic}complete: true\n`, "must not alias a list or mapping inside itself"],
    ] as const) {
      const started = Date.now();
      const response = await importYaml(document, "?dry_run=true");
      expect(response.body, response.text).toEqual(refused({ path: "document", message }));
      expect(response.status).toBe(422);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    // Aliases of a shared node, as Ruby's YAML writes a list every post shares (60 tags, 100 posts: more
    // values than the document has characters), are read as before.
    const tags = Array.from({ length: 60 }, (_, index) => `t${index}`).join(", ");
    const shared = Array.from(
      { length: 100 },
      (_, index) => `  p${index}: ${index === 0 ? `&t [${tags}]` : "*t"}`,
    );
    const few = `format: cms-site/1\njunk:\n${shared.join("\n")}\ncomplete: true\n`;
    const read = await importYaml(few, "?dry_run=true");
    expect(read.status, read.text).toBe(200);
    // Bytes (`!!binary`) aliased are refused as bytes, at their place, not counted byte by byte.
    const bytes = `format: cms-site/1\njunk:\n  b: &b !!binary ${"QUJD".repeat(1000)}\n  c: [*b, *b, *b]\ncomplete: true\n`;
    const binary = await importYaml(bytes, "?dry_run=true");
    expect(binary.status, binary.text).toBe(422);
    expect(binary.body.details[0]).toMatchObject({ path: "junk.b", line: 3 });
  }, 60_000);
});

// --- Text the database cannot store. ---

/** POST …/import with a YAML body. */
function importYaml(text: string, query = ""): Promise<ApiResponse> {
  return request(importUrl(query), {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/yaml" },
    body: text,
  });
}

/** The siteImport mutation's answer, as REST would put it: the error and its details, or the report. */
async function importGraphql(document: string, dryRun: boolean): Promise<unknown> {
  const response = await request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
    body: JSON.stringify({
      query:
        "mutation ($a: ID!, $d: String!, $dry: Boolean) { siteImport(account_id: $a, document: $d, dry_run: $dry) }",
      variables: { a: account.account_id, d: document, dry: dryRun },
    }),
  });
  const error = response.body.errors?.[0];
  if (!error) return response.body.data.siteImport;
  return { error: error.message, details: error.extensions?.details };
}

const TOO_MANY =
  "must not hold, once its aliases are expanded, more values than it has characters and a million more: write the repeated values out";

const UNSTORABLE = "must not contain NUL (\\u0000) characters or unpaired surrogates (\\ud800-\\udfff)";

function refused(...details: { path: string; message: string; line?: number }[]) {
  return { error: "Import refused: nothing was written", details };
}

async function blogHandles(): Promise<string[]> {
  const response = await client.get("/collections/blog/entries?per_page=100");
  expect(response.status, response.text).toBe(200);
  return (response.body.data ?? response.body).map((entry: { handle: string }) => entry.handle);
}

describe("text the database cannot store", () => {
  // YAML's double-quoted escapes: a NUL, and half of a surrogate pair.
  for (const [what, escaped] of [
    ["a NUL", "a\\0b"],
    ["an unpaired surrogate", "a\\ud800b"],
  ])
    it(`${what} in a title or a value is refused by the check, dry run or not, over REST and GraphQL`, async () => {
      const title = `format: cms-site/1\nentries:\n  blog:\n    - {handle: zz9, title: "${escaped}", published: true, published_at: null}\ncomplete: true\n`;
      const value =
        "format: cms-site/1\nentries:\n  blog:\n    - handle: zz8\n      title: Fine\n" +
        `      published: true\n      published_at: null\n      values: { summary: "${escaped}" }\ncomplete: true\n`;
      for (const [document, expected] of [
        [title, refused({ path: "entries.blog[0].title", message: UNSTORABLE, line: 4 })],
        [value, refused({ path: "entries.blog[0].values.summary", message: UNSTORABLE, line: 8 })],
      ] as const) {
        for (const query of ["?dry_run=true", ""]) {
          const response = await importYaml(document, query);
          expect(response.body, `${query} ${response.text}`).toEqual(expected);
          expect(response.status).toBe(422);
        }
        for (const dryRun of [true, false]) expect(await importGraphql(document, dryRun)).toEqual(expected);
      }
      expect(await blogHandles()).toEqual([]);
    });

  it("a hosted service's export.yaml is held to the same rule, under the converted record's path", async () => {
    const hosted = 'news:\n  - { handle: launch, title: "a\\0b", body: "<p>fine</p>" }\n';
    for (const query of ["?dry_run=true", ""]) {
      const response = await importYaml(hosted, query);
      expect(response.body, response.text).toEqual(
        refused({ path: "entries.news[0].title", message: UNSTORABLE }),
      );
      expect(response.status).toBe(422);
    }
    expect((await client.get("/collections/news")).status).toBe(404);
  });

  it("text inside a node aliased again is named once, where the node is written", async () => {
    const document = [
      "format: cms-site/1",
      "entries:",
      "  blog:",
      '    - { handle: first, title: First, values: { body: { deep: &shared { x: "a\\0b" } }, other: *shared } }',
      "    - { handle: second, title: Second, values: { body: *shared } }",
      "complete: true",
      "",
    ].join("\n");
    const response = await importYaml(document, "?dry_run=true");
    expect(response.body, response.text).toEqual(
      refused({ path: "entries.blog[0].values.body.deep.x", message: UNSTORABLE, line: 4 }),
    );
  });
});

// --- Documents nested too deep, and values YAML makes that are no JSON. ---

const NEST = "must not nest arrays and objects more than 64 levels deep";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** A blueprint field whose options hold `value`. */
const withOptions = (value: string) =>
  "format: cms-site/1\ncollections:\n  - handle: deep\n    name: Deep\n    routing: deep/:handle\n" +
  "    blueprints:\n      - handle: deep\n        title: Deep\n        fields:\n" +
  `          - { handle: x, type: list, options: { a: ${value} } }\ncomplete: true\n`;

/** A global whose value holds `value`. */
const withGlobal = (value: string) =>
  "format: cms-site/1\nglobals:\n" +
  `  - { handle: g, name: G, fields: [{ handle: x, type: list }], values: { x: ${value} } }\ncomplete: true\n`;

describe("a document nested too deep, or holding values no JSON has", () => {
  it("nesting past what the parser can follow is refused with the nesting rule's words, once, on both transports", async () => {
    const block = Array.from({ length: 1000 }, (_, depth) => `${" ".repeat(depth + 1)}- `).join("\n");
    for (const [document, line] of [
      [`format: cms-site/1\nx: ${nested(3000)}\ncomplete: true\n`, 2],
      [`format: cms-site/1\nx:\n${block}1\ncomplete: true\n`, 258],
      [withOptions(nested(1000)), 10],
      [withGlobal(nested(1000)), 3],
      // A syntax error before it: the fast parser stops there, and `yaml` runs out of stack.
      [`format: cms-site/1\na: b: c\nx: ${nested(3000)}\ncomplete: true\n`, 3],
    ] as const) {
      for (const query of ["?dry_run=true", ""]) {
        const response = await importYaml(document, query);
        expect(response.status, response.text).toBe(422);
        expect(response.text, response.text).not.toMatch(/call stack|RangeError/i);
        const nesting = response.body.details.filter(
          (detail: { message: string }) => detail.message === NEST,
        );
        expect(nesting, response.text).toEqual([{ path: `line ${line}`, message: NEST, line }]);
      }
      const graphql = (await importGraphql(document, true)) as { details: { message: string }[] };
      expect(graphql.details.filter((detail) => detail.message === NEST)).toHaveLength(1);
    }
    // A value the parser can follow keeps its own rule's answer, at its path.
    const response = await importYaml(withOptions(nested(150)), "?dry_run=true");
    expect(response.body, response.text).toEqual(
      refused({ path: "collections[0].blueprints[0].fields[0].options", message: NEST, line: 10 }),
    );
    expect((await client.get("/collections/deep")).status).toBe(404);
    expect((await client.get("/globals/g")).status).toBe(404);
  });

  it("a value YAML's tags make and JSON has not (!!binary, !!timestamp, !!set) is refused without printing its insides", async () => {
    const entry = (title: string) =>
      `format: cms-site/1\nentries:\n  blog:\n    - {handle: zz7, title: ${title}, published: true, published_at: null}\ncomplete: true\n`;
    for (const [title, tag] of [
      ["!!binary aGVsbG8=", "!!binary"],
      ["!!timestamp 2001-12-14", "!!timestamp"],
      ["!!set {a, b}", "!!set"],
    ]) {
      const expected = refused({
        path: "entries.blog[0].title",
        message: `must be text, a number, true, false, null, a list or a mapping, not ${tag}`,
        line: 4,
      });
      for (const query of ["?dry_run=true", ""]) {
        const response = await importYaml(entry(title as string), query);
        expect(response.body, response.text).toEqual(expected);
        expect(response.status).toBe(422);
      }
      expect(await importGraphql(entry(title as string), false)).toEqual(expected);
    }
    expect(await blogHandles()).toEqual([]);
  });
});
