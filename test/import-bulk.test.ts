// The import's bulk inserts (src/schema/import/bulk-insert.ts) send each statement's rows as one JSON
// parameter that the database takes apart: what they store must read back as the API stores it (values
// of every JSON kind, non-ASCII and escaped text, dates, booleans, nulls), on both databases; and text a
// database cannot store (NUL, an unpaired surrogate) is refused with a 422 naming its field, nothing
// written, as the API's own writes refuse it. Everything goes through the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { expectErrorBody } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

function importYaml(account: TestAccount, text: string) {
  return request(`${server.url}/v1/accounts/${account.account_id}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}`, "content-type": "application/yaml" },
    body: text,
  });
}

const head = [
  "format: cms-site/1",
  "collections:",
  "  - handle: notes",
  "    name: Notes",
  "    routing: notes/:handle",
  "    blueprints:",
  "      - handle: note",
  "        title: Note",
  "        fields:",
  "          - { handle: body, type: text }",
  "          - { handle: tags, type: list }",
  "entries:",
  "  notes:",
];

function site(entries: string[][]): string {
  return [...head, ...entries.flat(), "complete: true", ""].join("\n");
}

describe("the import's bulk inserts", () => {
  it("store entries as the API reads them back", async () => {
    const account = await createAccount(server, "Bulk");
    const text = site([
      [
        "    - handle: plain",
        '      title: "Café \\u00e9 \\"quoted\\" \\\\u0000 😀"',
        "      published: false",
        "      values:",
        '        body: "line one\\nline two\\t<b>&amp;</b> \\\\ back"',
        "        tags: [a, 'b c', '1e21']",
      ],
      [
        "    - handle: dated",
        "      title: Dated",
        "      published_at: 2024-02-29T12:34:56.789Z",
        "      position: 3",
        "      include_in_sitemap: false",
        "      values: {}",
      ],
    ]);
    const response = await importYaml(account, text);
    expect(response.status, response.text).toBe(200);
    expect(response.body.created.entries).toBe(2);
    const list = await api(server, account).get("/collections/notes/entries?per_page=10");
    expect(list.status, list.text).toBe(200);
    const byHandle = Object.fromEntries(
      (list.body.entries ?? list.body.data ?? list.body).map((entry: { handle: string }) => [
        entry.handle,
        entry,
      ]),
    );
    expect(byHandle.plain).toMatchObject({ title: 'Café é "quoted" \\u0000 😀', published: false });
    const plain = await api(server, account).get(`/collections/notes/entries/${byHandle.plain.id}`);
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body).toMatchObject({
      body: "line one\nline two\t<b>&amp;</b> \\ back",
      tags: ["a", "b c", "1e21"],
    });
    // The first revision holds the state as written, values included.
    const revisions = await api(server, account).get(
      `/collections/notes/entries/${byHandle.plain.id}/revisions`,
    );
    expect(revisions.status, revisions.text).toBe(200);
    expect(revisions.body.data.map((revision: { number: number }) => revision.number)).toEqual([1]);
    const first = await api(server, account).get(
      `/collections/notes/entries/${byHandle.plain.id}/revisions/1`,
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.state).toMatchObject({
      handle: "plain",
      title: 'Café é "quoted" \\u0000 😀',
      published: false,
      published_at: null,
      values: { body: "line one\nline two\t<b>&amp;</b> \\ back", tags: ["a", "b c", "1e21"] },
    });
    expect(byHandle.dated).toMatchObject({
      title: "Dated",
      published: true,
      published_at: "2024-02-29T12:34:56.789Z",
      position: 3,
      include_in_sitemap: false,
    });
  });

  it("refuse text a database cannot store, naming its field, with nothing written", async () => {
    const account = await createAccount(server, "Unstorable");
    const cases = [
      { entry: ["    - handle: nul", '      title: "a\\0b"'], field: "entries.notes[0].title" },
      {
        entry: ["    - handle: lone", "      title: Lone", "      values:", '        body: "x\\ud800y"'],
        field: "entries.notes[0].values.body",
      },
    ];
    for (const { entry, field } of cases) {
      const response = await importYaml(account, site([entry]));
      const details = expectErrorBody(response, 422, field);
      expect(response.body.error).toBe("Import refused: nothing was written");
      expect(details.map((detail) => detail.path)).toContain(field);
    }
    const list = await api(server, account).get("/collections/notes/entries");
    expect(list.status, list.text).toBe(404);
  });
});
