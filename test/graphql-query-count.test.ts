// Entity fields are resolved in batches: the number of SQL statements a GraphQL list makes does not grow
// with the number of entries (the server counts them per request when CMS_COUNT_QUERIES=1 and answers
// the count in X-Query-Count).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
const ENTRIES = 40;

function graphql(query: string, variables: Record<string, unknown>) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ query, variables: { account: account.account_id, ...variables } }),
  });
}

async function countedOnce(query: string, size: number, pick: (data: any) => unknown[]) {
  const response = await graphql(query, { size });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  const list = pick(response.body.data);
  expect(list).toHaveLength(size);
  // Every entry's entity field is expanded.
  for (const entry of list as { values: { author: { handle: string }; editors: unknown[] } }[]) {
    expect(entry.values.author.handle).toMatch(/^author-\d+$/);
    expect(entry.values.editors).toHaveLength(2);
  }
  const count = Number(response.headers.get("x-query-count"));
  expect(count, "X-Query-Count").toBeGreaterThan(0);
  return count;
}

/**
 * Statements for lists of 5, 20 and 40 entries, after a warm-up. The server keeps no answers while it
 * counts, so every request runs all its statements but those of the lookups (an account's blueprints,
 * collections, a list's total…), read by the warm-up and kept while nothing writes them.
 */
async function countsBySize(query: string, pick: (data: any) => unknown[]) {
  await countedOnce(query, 5, pick);
  const counts: number[] = [];
  for (const size of [5, 20, 40]) counts.push(await countedOnce(query, size, pick));
  return counts;
}

beforeAll(async () => {
  server = await startServer({ CMS_COUNT_QUERIES: "1" });
  account = await createAccount(server);
  const client = api(server, account);
  const authors = await client.post("/collections", {
    name: "Authors",
    handle: "authors",
    routing: "authors/:handle",
    blueprint: { handle: "author", fields: [{ handle: "bio", type: "text" }] },
  });
  expect(authors.status, authors.text).toBe(201);
  const posts = await client.post("/collections", {
    name: "Posts",
    handle: "posts",
    routing: "posts/:handle",
    blueprint: {
      handle: "post",
      fields: [
        { handle: "author", type: "entity", options: { collection: "authors" } },
        { handle: "editors", type: "entity", options: { collection: "authors", multiple: true } },
      ],
    },
  });
  expect(posts.status, posts.text).toBe(201);
  for (let i = 0; i < ENTRIES; i++) {
    const author = await client.post("/collections/authors/entries", {
      handle: `author-${i}`,
      title: `A${i}`,
    });
    expect(author.status, author.text).toBe(201);
  }
  for (let i = 0; i < ENTRIES; i++) {
    const post = await client.post("/collections/posts/entries", {
      handle: `post-${i}`,
      title: `Post ${i}`,
      author: `author-${i}`,
      editors: [`authors:author-${(i + 1) % ENTRIES}`, `authors:author-${(i + 2) % ENTRIES}`],
    });
    expect(post.status, post.text).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("SQL statements per GraphQL list", () => {
  it("contentEntries: the same count for 5, 20 and 40 entries with entity references", async () => {
    const query = `query ($account: ID!, $size: Int) {
      contentEntries(account_id: $account, collection: "posts", per_page: $size) {
        data { handle collection_handle blueprint_handle values } pagination { total }
      }
    }`;
    const pick = (data: any) => data.contentEntries.data;
    const counts = await countsBySize(query, pick);
    expect(new Set(counts).size, `counts ${counts.join(", ")}`).toBe(1);
  });

  it("contentEntriesConnection: the same count for 5, 20 and 40 entries", async () => {
    const query = `query ($account: ID!, $size: Int) {
      contentEntriesConnection(account_id: $account, collection: "posts", first: $size, filter: [{ field: "handle", starts_with: "post-" }]) {
        edges { cursor node { handle values } } total
      }
    }`;
    const pick = (data: any) =>
      data.contentEntriesConnection.edges.map((edge: { node: unknown }) => edge.node);
    const counts = await countsBySize(query, pick);
    expect(new Set(counts).size, `counts ${counts.join(", ")}`).toBe(1);
  });

  it("the management entries list too: one entry (by handle) costs what a page of 20 does", async () => {
    const query = `query ($account: ID!, $handle: String) {
      entries(account_id: $account, collection_id: "posts", handle: $handle) { data { handle values } }
    }`;
    const counted = async (handle: string | null, size: number) => {
      const response = await graphql(query, { handle });
      expect(response.body.data.entries.data, response.text).toHaveLength(size);
      return Number(response.headers.get("x-query-count"));
    };
    await counted(null, 20);
    const one = Math.min(await counted("post-3", 1), await counted("post-3", 1));
    const page = Math.min(await counted(null, 20), await counted(null, 20));
    expect(page).toBe(one);
  });
});

describe("SQL statements per write", () => {
  it("an update reads neither its collection nor its blueprint while they are kept, as a create", async () => {
    const client = api(server, account);
    const counted = async (title: string) => {
      const response = await client.patch("/collections/posts/entries/post-1", { title });
      expect(response.status, response.text).toBe(200);
      expect(response.body.title).toBe(title);
      return Number(response.headers.get("x-query-count"));
    };
    await counted("Warm");
    // The stored entry and its references (2), the update and the webhooks' lookup in its transaction (1-2),
    // the token with the account's generations read again after the write (1), the answer and the entries
    // it references (2): no Collection or Blueprint read, as none in a create. PostgreSQL also reads the
    // token before the write (SQLite keeps it while nothing was committed since) and counts its COMMIT.
    expect(await counted("Counted")).toBe(usesPostgres ? 8 : 6);
  });
});
