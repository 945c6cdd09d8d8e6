// GraphQL over HTTP (the specification's "Status Codes"), through a real client library (urql): an
// operation that ran answers 200 in `application/json` whatever its field errors, and keeps the errors'
// 403/404/422 in `application/graphql-response+json`, the type urql asks for first. A request that names
// neither type gets the newer one; a missing token is a 401 in both (decisions.md).
import { Client, fetchExchange, gql } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "./helpers/api.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let readToken: string;

interface Seen {
  status: number;
  type: string | null;
}

/** A urql client whose answers' status and type are recorded; `accept` replaces urql's own header. */
function client(token: string, accept?: string) {
  const seen: Seen[] = [];
  const urql = new Client({
    url: `${server.url}/graphql`,
    exchanges: [fetchExchange],
    preferGetMethod: false,
    requestPolicy: "network-only",
    fetchOptions: () => ({
      headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) },
    }),
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      seen.push({ status: response.status, type: response.headers.get("content-type") });
      return response;
    },
  });
  return { urql, seen };
}

const collection = gql`
  query Collection($account: ID!, $id: ID!) {
    collection(account_id: $account, id: $id) {
      handle
    }
  }
`;
const create = gql`
  mutation Create($account: ID!, $input: CollectionCreateInput!) {
    collectionCreate(account_id: $account, input: $input) {
      created
    }
  }
`;
const page = gql`
  query Page($account: ID!, $page: Int) {
    collections(account_id: $account, page: $page) {
      pagination {
        total
      }
    }
  }
`;

const JSON_TYPE = "application/json; charset=utf-8";
const GRAPHQL_TYPE = "application/graphql-response+json; charset=utf-8";

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  const created = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  expect(created.code, created.stderr).toBe(0);
  readToken = JSON.parse(created.stdout).token;
});

afterAll(async () => {
  await server?.stop();
});

describe("GraphQL over HTTP, by the media type the client accepts", () => {
  it("urql asks for application/graphql-response+json: a field error keeps its 404, data null", async () => {
    const { urql, seen } = client(account.token);
    const result = await urql.query(collection, { account: account.account_id, id: "nope" }).toPromise();
    expect(seen).toEqual([{ status: 404, type: GRAPHQL_TYPE }]);
    expect(result.data).toBeNull();
    expect(result.error?.graphQLErrors).toHaveLength(1);
    expect(result.error?.graphQLErrors[0]?.message).toBe("Collection not found");
    expect(result.error?.graphQLErrors[0]?.extensions.code).toBe("NOT_FOUND");
  });

  it("application/json: the same field error answers 200, with the same body", async () => {
    const { urql, seen } = client(account.token, "application/json");
    const result = await urql.query(collection, { account: account.account_id, id: "nope" }).toPromise();
    expect(seen).toEqual([{ status: 200, type: JSON_TYPE }]);
    expect(result.data).toBeNull();
    expect(result.error?.graphQLErrors[0]?.extensions.code).toBe("NOT_FOUND");
  });

  it("a refused input: 422 with its details, or 200 in application/json", async () => {
    const input = { name: "", handle: "blog", routing: "blog/:handle" };
    for (const [accept, status, type] of [
      [undefined, 422, GRAPHQL_TYPE],
      ["application/json", 200, JSON_TYPE],
    ] as const) {
      const { urql, seen } = client(account.token, accept);
      const result = await urql.mutation(create, { account: account.account_id, input }).toPromise();
      expect(seen, String(accept)).toEqual([{ status, type }]);
      expect(result.data ?? null).toBeNull();
      expect(result.error?.graphQLErrors[0]?.extensions).toMatchObject({
        code: "UNPROCESSABLE_ENTITY",
        details: [{ path: "name", message: "must not be empty" }],
      });
    }
  });

  it("a read-only token's write: 403, or 200 in application/json", async () => {
    const input = { name: "Blog", handle: "blog", routing: "blog/:handle" };
    for (const [accept, status] of [
      [undefined, 403],
      ["application/json", 200],
    ] as const) {
      const { urql, seen } = client(readToken, accept);
      const result = await urql.mutation(create, { account: account.account_id, input }).toPromise();
      expect(
        seen.map((answer) => answer.status),
        String(accept),
      ).toEqual([status]);
      expect(result.error?.graphQLErrors[0]?.extensions.code).toBe("FORBIDDEN");
    }
  });

  it("refused variables never run: 400, or 200 in application/json", async () => {
    for (const [accept, status] of [
      [undefined, 400],
      ["application/json", 200],
    ] as const) {
      const { urql, seen } = client(account.token, accept);
      const result = await urql.query(page, { account: account.account_id, page: 3_000_000_000 }).toPromise();
      expect(
        seen.map((answer) => answer.status),
        String(accept),
      ).toEqual([status]);
      expect(result.data ?? null).toBeNull();
      expect(result.error?.graphQLErrors[0]?.message).toMatch(/\$page/);
    }
  });

  it("an answer with data is a 200 in both types", async () => {
    for (const accept of [undefined, "application/json"]) {
      const { urql, seen } = client(account.token, accept);
      const result = await urql.query(page, { account: account.account_id, page: 1 }).toPromise();
      expect(
        seen.map((answer) => answer.status),
        String(accept),
      ).toEqual([200]);
      expect(result.error).toBeUndefined();
      expect(result.data.collections.pagination.total).toBe(0);
    }
  });

  it("no Accept, or only wildcards: the newer type; no type it can send: 406; no token: 401 in both", async () => {
    const body = JSON.stringify({
      query: `{ collection(account_id: "${account.account_id}", id: "nope") { handle } }`,
    });
    const post = (headers: Record<string, string>, token: string | null = account.token) =>
      request(`${server.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body,
      });
    for (const accept of ["", "*/*", "application/*"]) {
      const response = await post(accept ? { accept } : {});
      expect(response.status, `${accept}: ${response.text}`).toBe(404);
      expect(response.headers.get("content-type"), accept).toBe(GRAPHQL_TYPE);
      expect(response.body).toMatchObject({ data: null, errors: [{ extensions: { code: "NOT_FOUND" } }] });
    }
    expect((await post({ accept: "text/html" })).status).toBe(406);
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const anonymous = await post({ accept }, null);
      expect(anonymous.status, accept).toBe(401);
      expect(anonymous.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    }
  });
});
