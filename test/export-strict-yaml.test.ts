// The export is strict YAML: every character YAML forbids raw (C0 and C1 controls, DEL, U+FFFE/U+FFFF)
// is written as a double-quoted escape, and so are the characters YAML 1.1 reads as line breaks or a byte
// order mark (U+0085, U+2028, U+2029, U+FEFF), so that readers of either version read the same strings.
// An export holding all of them is read by js-yaml (the export writes with `yaml`), by `yaml`, and by
// Python's PyYAML when this machine has it; imported into a fresh account, it gives back the same strings
// (the `site` global's `title` field among them).
import { spawnSync } from "node:child_process";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

/** Every character a stored string may hold that YAML forbids raw, or that YAML 1.1 reads otherwise. */
const awkward = [
  ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0 && code !== 0x0a),
  ...Array.from({ length: 0x21 }, (_, n) => 0x7f + n),
  0xa0,
  0x2028,
  0x2029,
  0xfeff,
  0xfffe,
  0xffff,
]
  .map((code) => String.fromCharCode(code))
  .join("");
const line = `a${awkward}b 😀 c`;
/** Lines long enough for a block scalar, with the awkward characters inside them. */
const lines = `<p>${awkward}</p>\n  <b>{{ title }}</b>\n${awkward}\n`;

/** The characters YAML's printable set allows raw, less those YAML 1.1 reads as breaks or a BOM. */
const notRaw = /[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;

const python = spawnSync("python3", ["-c", "import yaml"]).status === 0;

let server: TestServer;
let a: TestAccount;
let b: TestAccount;
let text: string;

async function buildSite(client: Api): Promise<void> {
  await expectCreated(
    client.post("/collections", {
      name: line,
      handle: "notes",
      routing: "notes/:handle",
      blueprint: {
        handle: "note",
        fields: [
          { handle: "body", type: "rich_text" },
          { handle: "tags", type: "list" },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/collections/notes/entries", { handle: "odd", title: line, body: lines, tags: [line] }),
  );
  await expectCreated(client.post("/templates", { handle: "odd", title: line, html: lines }));
  await expectCreated(
    client.post("/globals", {
      name: line,
      handle: "site",
      fields: [
        { handle: "tagline", type: "text" },
        { handle: "title", type: "text" },
      ],
      tagline: lines,
      title: line,
    }),
  );
  const menu = await expectCreated(client.post("/navigations", { title: line, handle: "main" }));
  await expectCreated(client.post(`/navigations/${menu.id}/items`, { title: line, url: "/" }));
}

/** The strings this test wrote, as a parsed export holds them. */
function stringsOf(site: any) {
  return {
    collection: site.collections.find((c: any) => c.handle === "notes").name,
    entry: site.entries.notes.find((e: any) => e.handle === "odd"),
    template: site.templates.find((t: any) => t.handle === "odd"),
    global: site.globals.find((g: any) => g.handle === "site"),
    navigation: site.navigations.find((n: any) => n.handle === "main"),
  };
}

function expectSameStrings(site: any): void {
  const found = stringsOf(site);
  expect(found.collection).toBe(line);
  expect(found.entry.title).toBe(line);
  expect(found.entry.values.body).toBe(lines);
  expect(found.entry.values.tags).toEqual([line]);
  expect(found.template.title).toBe(line);
  expect(found.template.html).toBe(lines);
  expect(found.global.name).toBe(line);
  expect(found.global.values).toEqual({ tagline: lines, title: line });
  expect(found.navigation.title).toBe(line);
  expect(found.navigation.items[0].title).toBe(line);
}

beforeAll(async () => {
  server = await startServer();
  [a, b] = await Promise.all([createAccount(server, "Awkward"), createAccount(server, "Copy")]);
  await buildSite(api(server, a));
  const response = await request(`${server.url}/v1/accounts/${a.account_id}/export.yaml`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
  expect(response.status, response.text).toBe(200);
  text = response.text;
});
afterAll(async () => {
  await server?.stop();
});

describe("export.yaml with characters YAML forbids raw", () => {
  it("writes none of them raw", () => {
    const raw = text.match(new RegExp(notRaw.source, "gu")) ?? [];
    expect(raw.map((char) => char.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("is read by js-yaml and by yaml as the same strings", () => {
    expectSameStrings(load(text));
    expectSameStrings(parse(text));
  });

  it.skipIf(!python)("is read by PyYAML as the same strings", () => {
    const script =
      "import sys, json, yaml\n" +
      "site = yaml.safe_load(sys.stdin.buffer.read().decode('utf-8'))\n" +
      "sys.stdout.write(json.dumps(site, default=str))\n";
    const run = spawnSync("python3", ["-c", script], { input: text, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expectSameStrings(JSON.parse(run.stdout));
  });

  it("imports into a fresh account with the same strings", async () => {
    const imported = await request(`${server.url}/v1/accounts/${b.account_id}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.token}`, "content-type": "application/yaml" },
      body: text,
    });
    expect(imported.status, imported.text).toBe(200);
    const client = api(server, b);
    const collection = await client.get("/collections/notes");
    expect(collection.body.name).toBe(line);
    const entry = await client.get("/collections/notes/entries/odd");
    expect(entry.status, entry.text).toBe(200);
    expect([entry.body.title, entry.body.body, entry.body.tags]).toEqual([line, lines, [line]]);
    const template = await client.get("/templates/odd");
    expect([template.body.title, template.body.html]).toEqual([line, lines]);
    const global = await client.get("/globals/site");
    expect([global.body.name, global.body.tagline, global.body.title]).toEqual([line, lines, line]);
  });
});
