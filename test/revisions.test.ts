// Revisions of entries, globals and templates over REST: every create, update and
// restore records one, numbered per record from 1, with the token's ID and the record's whole state; a
// restore goes through the update and answers the record; lists are newest first in the list envelope;
// another account's record is refused; retention keeps the newest REVISIONS_KEEP after a write.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let main: TestAccount;
let client: Api;
let other: Api;
/** The main account's token ID, as `cms token list` names it. */
let tokenId: string;

const entries = "/collections/notes/entries";

async function tokenIdOf(testServer: TestServer, account: TestAccount): Promise<string> {
  const listed = await cms(testServer, ["token", "list", "--account", account.account_id, "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  const [token] = JSON.parse(listed.stdout) as { id: string }[];
  return token?.id ?? "";
}

async function notesCollection(on: Api): Promise<void> {
  await expectCreated(
    on.post("/collections", {
      name: "Notes",
      handle: "notes",
      routing: "notes/:handle",
      blueprint: {
        handle: "note",
        fields: [
          { handle: "body", type: "text" },
          { handle: "rating", type: "number" },
          { handle: "subtitle", type: "text" },
        ],
      },
    }),
  );
}

function ok(response: { status: number; text: string; body: any }, status = 200): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

beforeAll(async () => {
  server = await startServer();
  [main] = await Promise.all([createAccount(server, "Main")]);
  const second = await createAccount(server, "Other");
  client = api(server, main);
  other = api(server, second);
  tokenId = await tokenIdOf(server, main);
  expect(tokenId).toMatch(/^tok_/);
  await Promise.all([notesCollection(client), notesCollection(other)]);
});
afterAll(() => server?.stop());

describe("entry revisions", () => {
  it("three saves then a restore of the first: the entry is the first again, a 4th revision recorded", async () => {
    const first = await expectCreated(
      client.post(entries, { handle: "first", title: "First title", body: "one", rating: 1 }),
    );
    ok(await client.put(`${entries}/first`, { title: "Second title", body: "two", subtitle: "added" }));
    ok(await client.put(`${entries}/first`, { title: "Third title", published: false, rating: 3 }));

    const list = ok(await client.get(`${entries}/first/revisions`));
    expect(list.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 3,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    expect(list.data.map((revision: any) => revision.number)).toEqual([3, 2, 1]);
    for (const revision of list.data) {
      expect(revision).toEqual({
        number: revision.number,
        created_at: expect.stringMatching(ISO),
        token_id: tokenId,
      });
    }

    const one = ok(await client.get(`${entries}/first/revisions/1`));
    expect(one).toMatchObject({ number: 1, token_id: tokenId, created_at: expect.stringMatching(ISO) });
    expect(one.state).toMatchObject({
      id: first.id,
      handle: "first",
      title: "First title",
      published: true,
      content_path: "/notes/first",
      values: { body: "one", rating: 1 },
    });
    expect(one.state.values).toEqual({ body: "one", rating: 1 });
    const three = ok(await client.get(`${entries}/${first.id}/revisions/3`));
    expect(three.state).toMatchObject({ title: "Third title", published: false });
    expect(three.state.values).toEqual({ body: "two", rating: 3, subtitle: "added" });

    const restored = ok(await client.post(`${entries}/first/revisions/1/restore`));
    // The REST answer of an entry: its values spread into top-level keys, the cleared one gone.
    expect(restored).toMatchObject({
      id: first.id,
      title: "First title",
      published: true,
      body: "one",
      rating: 1,
    });
    expect(restored).not.toHaveProperty("subtitle");
    expect(restored).not.toHaveProperty("values");
    const read = ok(await client.get(`${entries}/first`));
    expect(read).toEqual(restored);
    const { updated_at: _updated, ...firstFields } = first;
    expect(read).toMatchObject(firstFields);

    const after = ok(await client.get(`${entries}/first/revisions`));
    expect(after.data.map((revision: any) => revision.number)).toEqual([4, 3, 2, 1]);
    const fourth = ok(await client.get(`${entries}/first/revisions/4`));
    const { updated_at: _a, ...fourthState } = fourth.state;
    const { updated_at: _b, ...firstState } = one.state;
    expect(fourthState).toEqual(firstState);
    expect(fourth.token_id).toBe(tokenId);

    // The token's secret appears nowhere: not in a list, a revision, nor a restore.
    for (const text of [list, one, three, restored, after, fourth].map((body) => JSON.stringify(body)))
      expect(text).not.toContain(main.token);
  });

  it("is readable over GraphQL with the same operations", async () => {
    await expectCreated(client.post(entries, { handle: "graphql", title: "GraphQL", body: "x" }));
    const response = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${main.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: `query ($a: ID!) {
          entryRevisions(account_id: $a, collection_id: "notes", id: "graphql") { data { number token_id } pagination { total } }
          entryRevision(account_id: $a, collection_id: "notes", id: "graphql", revision: 1) { number state }
        }`,
        variables: { a: main.account_id },
      }),
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.entryRevisions).toEqual({
      data: [{ number: 1, token_id: tokenId }],
      pagination: { total: 1 },
    });
    expect(response.body.data.entryRevision.state.values).toEqual({ body: "x" });
    // The routing override (a GraphQL-only update) is recorded too.
    const moved = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${main.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation ($a: ID!) { entryRoutingUpdate(account_id: $a, collection_id: "notes", id: "graphql",
          input: { routing_override: "elsewhere" }) { content_path } }`,
        variables: { a: main.account_id },
      }),
    });
    expect(moved.body, moved.text).toEqual({ data: { entryRoutingUpdate: { content_path: "/elsewhere" } } });
    expect(ok(await client.get(`${entries}/graphql/revisions/2`)).state).toMatchObject({
      routing_override: "elsewhere",
      content_path: "/elsewhere",
      values: { body: "x" },
    });
  });

  it("refuses a revision of another account's entry as the entry's own read does", async () => {
    const theirs = await expectCreated(
      other.post(entries, { handle: "theirs", title: "Theirs", body: "secret" }),
    );
    // The other account's entry through the main account's path: no such entry there.
    expectError(await client.get(`${entries}/${theirs.id}/revisions`), 404);
    expectError(await client.get(`${entries}/${theirs.id}/revisions/1`), 404);
    expectError(await client.post(`${entries}/${theirs.id}/revisions/1/restore`), 404);
    // The main token on the other account's path: refused like any of that account's reads.
    const onTheirPath = api(server, other.account, main.token);
    expectError(await onTheirPath.get(`${entries}/theirs/revisions`), 403);
    expectError(await onTheirPath.get(`${entries}/theirs/revisions/1`), 403);
    expectError(await onTheirPath.post(`${entries}/theirs/revisions/1/restore`), 403);
    expect(ok(await other.get(`${entries}/theirs`)).body).toBe("secret");
  });

  it("answers 404 for a revision never kept and 422 for a number that cannot be one", async () => {
    await expectCreated(client.post(entries, { handle: "numbers", title: "Numbers" }));
    expectError(await client.get(`${entries}/numbers/revisions/2`), 404);
    expectError(await client.post(`${entries}/numbers/revisions/2/restore`), 404);
    expectError(await client.get(`${entries}/numbers/revisions/0`), 422, "revision");
    expectError(await client.get(`${entries}/numbers/revisions/abc`), 422, "revision");
    expectError(await client.get(`${entries}/missing/revisions`), 404);
  });

  it("numbers concurrent saves of one entry 1, 2, 3… without a gap or a failure", async () => {
    await expectCreated(client.post(entries, { handle: "racy", title: "Racy" }));
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        client.put(`${entries}/racy`, { [n % 2 ? "body" : "subtitle"]: `v${n}` }),
      ),
    );
    for (const save of saves) ok(save);
    const list = ok(await client.get(`${entries}/racy/revisions`));
    expect(list.data.map((revision: any) => revision.number)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("a restore brings back the revision's routing override and content path", async () => {
    /** Sets (or with null clears) an entry's routing override through its GraphQL-only mutation. */
    async function route(handle: string, override: string | null): Promise<void> {
      const response = await request(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${main.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation ($a: ID!, $h: ID!, $o: String) { entryRoutingUpdate(account_id: $a,
            collection_id: "notes", id: $h, input: { routing_override: $o }) { content_path } }`,
          variables: { a: main.account_id, h: handle, o: override },
        }),
      });
      expect(response.body.errors, response.text).toBeUndefined();
    }
    await expectCreated(client.post(entries, { handle: "routed", title: "Routed", body: "b" }));
    await route("routed", "promo"); // revision 2
    await route("routed", null); // revision 3
    expect(ok(await client.get(`${entries}/routed`)).content_path).toBe("/notes/routed");

    const back = ok(await client.post(`${entries}/routed/revisions/2/restore`));
    expect(back).toMatchObject({ content_path: "/promo", routing_override: "promo", body: "b" });
    expect(ok(await client.get(`${entries}/routed`))).toEqual(back);
    // One write, one revision: the override came back with the rest of the entry.
    const four = ok(await client.get(`${entries}/routed/revisions`)).data.map(
      (revision: any) => revision.number,
    );
    expect(four).toEqual([4, 3, 2, 1]);
    expect(ok(await client.get(`${entries}/routed/revisions/4`)).state).toMatchObject({
      routing_override: "promo",
      content_path: "/promo",
    });

    const cleared = ok(await client.post(`${entries}/routed/revisions/1/restore`));
    expect(cleared).toMatchObject({ content_path: "/notes/routed", routing_override: null });

    // A path another entry has taken since is a 422 on routing_override, and nothing changes.
    await expectCreated(client.post(entries, { handle: "squatter", title: "Squatter" }));
    await route("squatter", "promo");
    expectError(await client.post(`${entries}/routed/revisions/2/restore`), 422, "routing_override");
    expect(ok(await client.get(`${entries}/routed`))).toEqual(cleared);
    expect(ok(await client.get(`${entries}/routed/revisions`)).data[0].number).toBe(5);
  });
});

describe("global revisions", () => {
  it("records creates and updates and restores fields and values", async () => {
    const created = await expectCreated(
      client.post("/globals", {
        name: "Contact",
        handle: "contact",
        fields: [{ handle: "phone", type: "text" }],
        phone: "111",
      }),
    );
    ok(await client.put("/globals/contact", { phone: "222" }));
    ok(
      await client.put("/globals/contact", {
        name: "Contact us",
        fields: [
          { handle: "phone", type: "text" },
          { handle: "email", type: "text" },
        ],
        email: "a@example.com",
      }),
    );
    const list = ok(await client.get("/globals/contact/revisions"));
    expect(list.data.map((revision: any) => revision.number)).toEqual([3, 2, 1]);
    expect(list.pagination.total).toBe(3);
    const one = ok(await client.get(`/globals/${created.id}/revisions/1`));
    expect(one.state).toMatchObject({ name: "Contact", handle: "contact", values: { phone: "111" } });
    expect(one.state.blueprint.fields.map((field: any) => field.handle)).toEqual(["phone"]);

    const restored = ok(await client.post("/globals/contact/revisions/1/restore"));
    expect(restored).toMatchObject({ id: created.id, name: "Contact", phone: "111" });
    expect(restored).not.toHaveProperty("email");
    expect(restored.blueprint.fields.map((field: any) => field.handle)).toEqual(["phone"]);
    expect(ok(await client.get("/globals/contact"))).toEqual(restored);
    const after = ok(await client.get("/globals/contact/revisions"));
    expect(after.data[0]).toEqual({ number: 4, created_at: expect.stringMatching(ISO), token_id: tokenId });
    expectError(await api(server, other.account, main.token).get("/globals/contact/revisions"), 403);
    expectError(await other.get(`/globals/${created.id}/revisions`), 404);
  });
});

describe("template revisions", () => {
  it("records creates and updates and restores the source", async () => {
    const created = await expectCreated(
      client.post("/templates", { template: { handle: "page", title: "Page", html: "<p>one</p>" } }),
    );
    ok(await client.put("/templates/page", { template: { html: "<p>two</p>" } }));
    ok(await client.put("/templates/page", { template: { html: "<p>three</p>", title: "Page 3" } }));
    const list = ok(await client.get("/templates/page/revisions"));
    expect(list.data.map((revision: any) => revision.number)).toEqual([3, 2, 1]);
    expect(ok(await client.get("/templates/page/revisions/2")).state).toMatchObject({
      id: created.id,
      html: "<p>two</p>",
      title: "Page",
    });
    const restored = ok(await client.post("/templates/page/revisions/1/restore"));
    expect(restored).toEqual({ ...created, updated_at: expect.stringMatching(ISO) });
    expect(ok(await client.get("/templates/page/revisions")).data[0].number).toBe(4);
    expectError(await other.get(`/templates/${created.id}/revisions/1`), 404);
  });

  it("numbers concurrent saves of one template without a failure (no version to compare)", async () => {
    await expectCreated(client.post("/templates", { template: { handle: "busy", html: "<p>0</p>" } }));
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        client.put("/templates/busy", { template: { html: `<p>${n + 1}</p>` } }),
      ),
    );
    for (const save of saves) ok(save);
    const list = ok(await client.get("/templates/busy/revisions"));
    expect(list.data.map((revision: any) => revision.number)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });
});

describe("retention", () => {
  let kept: TestServer;
  afterAll(() => kept?.stop());

  it("keeps only the newest REVISIONS_KEEP with REVISIONS_KEEP_DAYS=0, pruned soon after the writes", async () => {
    kept = await startServer({ REVISIONS_KEEP: "2", REVISIONS_KEEP_DAYS: "0" });
    const account = await createAccount(kept, "Kept");
    const keptClient = api(kept, account);
    await notesCollection(keptClient);
    await expectCreated(keptClient.post(entries, { handle: "kept", title: "Save 1" }));
    for (let save = 2; save <= 5; save++)
      ok(await keptClient.put(`${entries}/kept`, { title: `Save ${save}` }));
    let numbers: number[] = [];
    for (let tries = 0; tries < 50; tries++) {
      const list = ok(await keptClient.get(`${entries}/kept/revisions`));
      numbers = list.data.map((revision: any) => revision.number);
      if (numbers.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(numbers).toEqual([5, 4]);
    expect(ok(await keptClient.get(`${entries}/kept/revisions/4`)).state.title).toBe("Save 4");
    expectError(await keptClient.get(`${entries}/kept/revisions/3`), 404);
  });
});
