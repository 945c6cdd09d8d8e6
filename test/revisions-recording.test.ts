// Entry revisions are recorded by the database (src/db/entry-revisions.ts), per process: a process with
// REVISIONS_KEEP=0 REVISIONS_KEEP_DAYS=0 records nothing on a database shared with one that records, and
// the one that records keeps doing so. A trash restore's revision holds the entry as the restore leaves
// it (its path moved with the collection's routing) and the restoring token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let off: TestServer;
let client: Api;
let quiet: Api;
let tokenId: string;

const entries = "/collections/notes/entries";

function ok(response: { status: number; text: string; body: any }, status = 200): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

beforeAll(async () => {
  server = await startServer();
  const account = await createAccount(server, "Main");
  client = api(server, account);
  off = await server.twin({ REVISIONS_KEEP: "0", REVISIONS_KEEP_DAYS: "0" });
  quiet = api(off, account);
  const listed = await cms(server, ["token", "list", "--account", account.account_id, "--json"]);
  tokenId = (JSON.parse(listed.stdout) as { id: string }[])[0]?.id ?? "";
  await expectCreated(
    client.post("/collections", {
      name: "Notes",
      handle: "notes",
      routing: "notes/:handle",
      blueprint: { handle: "note", fields: [{ handle: "body", type: "text" }] },
    }),
  );
});
afterAll(async () => {
  await off?.stop();
  await server?.stop();
});

describe("recording is per process", () => {
  it("a process with recording off records nothing; the other records its own writes, numbered by version", async () => {
    const quietEntry = ok(await quiet.post(entries, { handle: "quiet", title: "Quiet", body: "a" }), 201);
    ok(await quiet.put(`${entries}/quiet`, { title: "Quieter" }));
    expect(ok(await client.get(`${entries}/quiet/revisions`)).data).toEqual([]);

    // Written twice without recording (version 1): the next recorded write is the version's revision.
    ok(await client.put(`${entries}/quiet`, { body: "b" }));
    const list = ok(await client.get(`${entries}/quiet/revisions`));
    expect(list.data).toEqual([{ number: 3, created_at: expect.any(String), token_id: tokenId }]);
    const { state } = ok(await client.get(`${entries}/quiet/revisions/3`));
    const now = ok(await client.get(`${entries}/quiet`));
    expect(state).toEqual({
      id: quietEntry.id,
      collection_id: expect.stringMatching(/^clctn_/),
      blueprint_id: expect.stringMatching(/^blprt_/),
      handle: "quiet",
      title: "Quieter",
      published: true,
      published_at: null,
      include_in_sitemap: true,
      position: 0,
      template_handle: null,
      layout_handle: null,
      content_path: "/notes/quiet",
      routing_override: null,
      created_at: now.created_at,
      updated_at: now.updated_at,
      values: { body: "b" },
    });
  });

  it("a trash restore's revision holds the path the restore gave it and the restoring token", async () => {
    const note = ok(await client.post(entries, { handle: "moved", title: "Moved", body: "x" }), 201);
    expect((await client.delete(`${entries}/moved`)).status).toBe(204);
    ok(await client.patch("/collections/notes", { routing: "memos/:handle" }));
    const [item] = ok(await client.get("/trash")).data;
    expect(item).toMatchObject({ handle: "moved" });
    ok(await client.post(`/trash/${item.id}/restore`));

    const list = ok(await client.get(`${entries}/moved/revisions`));
    expect(list.data.map((revision: any) => [revision.number, revision.token_id])).toEqual([
      [2, tokenId],
      [1, tokenId],
    ]);
    const { state } = ok(await client.get(`${entries}/moved/revisions/2`));
    expect(state).toMatchObject({ id: note.id, content_path: "/memos/moved", values: { body: "x" } });
  });
});
