// A list's total is kept as a lookup of its account's content generation (src/schema/entries/count.ts): an
// account's own writes, through this process or another, end it; another account's writes do not. Seen in the statements a list
// request runs (CMS_COUNT_QUERIES=1 answers their number in X-Query-Count), with the answer cache off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let twin: TestServer;
let a: Api;
let b: Api;
let aThroughTwin: Api;
let bThroughTwin: Api;
let written = 0;

const counting = { CMS_COUNT_QUERIES: "1", READ_CACHE_MB: "0" };

async function withNotes(account: TestAccount): Promise<Api> {
  const client = api(server, account);
  await seedNotesSite(client);
  return client;
}

const write = (client: Api) =>
  expectCreated(client.post("/collections/notes/entries", { handle: `n${++written}`, title: "Note" }));

/** The statements of A's list and its total. */
async function listOfA(): Promise<{ statements: number; total: number }> {
  const response = await a.get("/collections/notes/entries");
  expect(response.status, response.text).toBe(200);
  return {
    statements: Number(response.headers.get("x-query-count")),
    total: response.body.pagination.total,
  };
}

/** The statements of A's GraphQL list of published entries, and its total. */
async function contentListOfA(): Promise<{ statements: number; total: number }> {
  const response = await request(`${server.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${a.account.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: `query ($account: ID!) { contentEntries(account_id: $account, collection: "notes") {
        pagination { total } } }`,
      variables: { account: a.account.account_id },
    }),
  });
  expect(response.body.errors, response.text).toBeUndefined();
  return {
    statements: Number(response.headers.get("x-query-count")),
    total: response.body.data.contentEntries.pagination.total,
  };
}

beforeAll(async () => {
  server = await startServer(counting);
  twin = await server.twin(counting);
  a = await withNotes(await createAccount(server, "Counted A"));
  b = await withNotes(await createAccount(server, "Counted B"));
  aThroughTwin = api(twin, a.account);
  bThroughTwin = api(twin, b.account);
  await write(a);
});

afterAll(async () => {
  await twin?.stop();
  await server?.stop();
});

/**
 * The statement that reads the request's token and generations: on PostgreSQL every request makes it; on
 * SQLite it is kept until anything is committed (src/schema/generations.ts `keptIdentities`), so the first
 * request after any write makes it once more.
 */
const identityAgain = usesPostgres ? 0 : 1;

describe.each([
  ["REST", listOfA],
  ["GraphQL", contentListOfA],
])("a list's total (%s)", (_name, list) => {
  it("is kept: counted once, then one statement fewer while nothing of the account changes", async () => {
    await write(a);
    const counted = await list();
    const kept = await list();
    expect(kept.total).toBe(counted.total);
    expect(kept.statements).toBe(counted.statements - 1);
    expect(await list()).toEqual(kept);
  });

  it("is kept past another account's writes through this process", async () => {
    const kept = await list();
    await write(b);
    expect(await list()).toEqual({ ...kept, statements: kept.statements + identityAgain });
    expect(await list()).toEqual(kept);
  });

  it("is counted again after the account's own write, through this process or another", async () => {
    const kept = await list();
    await write(a);
    // The write's own request read the identity again after it wrote, under the same token and Host.
    expect(await list()).toEqual({ statements: kept.statements + 1, total: kept.total + 1 });
    await list();
    await write(aThroughTwin);
    expect(await list()).toEqual({ statements: kept.statements + 1 + identityAgain, total: kept.total + 2 });
  });

  it("is kept after another account's write through another process", async () => {
    const kept = await list();
    await write(bThroughTwin);
    expect(await list()).toEqual({ ...kept, statements: kept.statements + identityAgain });
    expect(await list()).toEqual(kept);
  });
});
