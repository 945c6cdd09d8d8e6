// Limits on GraphQL requests (depth, aliases, root fields, cost, tokens, no batching): each answers one
// clear GraphQL error and never a 500; introspection and GraphiQL keep working.
import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlLimits } from "../src/graphql-limits.ts";
import { type ApiResponse, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

function post(body: unknown, token = account.token) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
}
const graphql = (query: string) => post({ query });

function expectLimit(response: ApiResponse, message: RegExp) {
  // A 400 whatever the client accepts (SECURITY.md): `application/json` too, for which graphql-yoga
  // would answer other invalid operations with a 200.
  expect(response.status, response.text).toBe(400);
  expect(response.body.data ?? null, response.text).toBeNull();
  expect(response.body.errors, response.text).toHaveLength(1);
  expect(response.body.errors[0].message, response.text).toMatch(message);
  expect(response.body.errors[0].extensions?.code, response.text).toBe("BAD_REQUEST");
  expect(response.text).not.toMatch(/Syntax Error|\bat .+\.(ts|js):\d+/);
}

const nest = (levels: number) => `${"ofType { ".repeat(levels)}name${" }".repeat(levels)}`;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
});

afterAll(async () => {
  await server?.stop();
});

describe("GraphQL limits", () => {
  it("answers an ordinary query", async () => {
    const response = await graphql(
      `{ collections(account_id: "${account.account_id}") { data { handle blueprints { handle } } pagination { total } } }`,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.collections.pagination.total).toBe(0);
  });

  it("keeps introspection and GraphiQL working", async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const response = await graphql(query);
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.__schema.types.length).toBeGreaterThan(10);
    const page = await request(`${server.url}/graphql`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text.toLowerCase()).toContain("graphiql");
  });

  it("limits the depth", async () => {
    // __type, fields, type, the ofType levels and name.
    const within = await graphql(
      `{ __type(name: "Query") { fields { type { ${nest(graphqlLimits.depth - 4)} } } } }`,
    );
    expect(within.body.errors, within.text).toBeUndefined();
    const over = await graphql(
      `{ __type(name: "Query") { fields { type { ${nest(graphqlLimits.depth - 3)} } } } }`,
    );
    expectLimit(over, new RegExp(`depth limit of ${graphqlLimits.depth} exceeded`, "i"));
  });

  it("limits the depth reached through fragments", async () => {
    const over = await graphql(
      `{ __type(name: "Query") { ...F } } fragment F on __Type { fields { type { ${nest(graphqlLimits.depth)} } } }`,
    );
    expectLimit(over, /depth limit/i);
  });

  it("limits the aliases", async () => {
    const aliases = (n: number) =>
      Array.from({ length: n }, (_, i) => `a${i}: __type(name: "Query") { name }`).join(" ");
    const within = await graphql(`{ ${aliases(graphqlLimits.aliases)} }`);
    expect(within.body.errors, within.text).toBeUndefined();
    expectLimit(await graphql(`{ ${aliases(graphqlLimits.aliases + 1)} }`), /aliases limit/i);
  });

  it("limits the root fields, fragments included", async () => {
    const fields = (n: number) => Array.from({ length: n }, () => `__type(name: "Query") { name }`).join(" ");
    const within = await graphql(`{ ${fields(graphqlLimits.rootFields)} }`);
    expect(within.body.errors, within.text).toBeUndefined();
    expectLimit(
      await graphql(`{ ${fields(graphqlLimits.rootFields + 1)} }`),
      new RegExp(
        `root field limit of ${graphqlLimits.rootFields} exceeded, found ${graphqlLimits.rootFields + 1}`,
        "i",
      ),
    );
    expectLimit(
      await graphql(
        `query { ...A ...B } fragment A on Query { ${fields(15)} } fragment B on Query { ${fields(15)} }`,
      ),
      /root field limit/i,
    );
  });

  it("limits the cost", async () => {
    const spreads = " ...F".repeat(400);
    const over = await graphql(
      `{ __type(name: "Query") { ${spreads} } } fragment F on __Type { fields { name description type { name kind } } }`,
    );
    expectLimit(over, new RegExp(`cost limit of ${graphqlLimits.cost} exceeded`, "i"));
  });

  it("limits the tokens", async () => {
    const over = await graphql(`{ ${"__typename ".repeat(graphqlLimits.tokens + 1)}}`);
    expectLimit(over, new RegExp(`token limit of ${graphqlLimits.tokens} exceeded`, "i"));
  });

  it("answers 400 to clients that accept application/graphql-response+json", async () => {
    const response = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
        authorization: `Bearer ${account.token}`,
      },
      body: JSON.stringify({ query: `{ ${"__typename ".repeat(graphqlLimits.tokens + 1)}}` }),
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors[0].message).toMatch(/token limit/i);
    const depth = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
        authorization: `Bearer ${account.token}`,
      },
      body: JSON.stringify({
        query: `{ __type(name: "Query") { fields { type { ${nest(graphqlLimits.depth)} } } } }`,
      }),
    });
    expect(depth.status, depth.text).toBe(400);
    expect(depth.body.errors[0].message).toMatch(/depth limit/i);
  });

  it("refuses batches of operations", async () => {
    const response = await post([{ query: "{ __typename }" }, { query: "{ __typename }" }]);
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(response.status, response.text).toBeLessThan(500);
    expect(response.body.errors?.[0]?.message, response.text).toBeTruthy();
  });

  it("checks the token before the limits", async () => {
    const response = await post(
      { query: `{ ${"__typename ".repeat(graphqlLimits.tokens + 1)}}` },
      "cms_unknown",
    );
    expect(response.status).toBe(401);
  });

  // Found by test/fuzz.test.ts: a JSON variable thousands of levels deep overflowed the stack
  // downstream, and an unpaired surrogate ("\ud800") failed in the database driver: both were 500s.
  it("refuses a JSON value nested more than 64 levels deep and an unpaired surrogate, never a 500", async () => {
    const create = `mutation ($account: ID!, $input: CollectionCreateInput!) {
      collectionCreate(account_id: $account, input: $input) { created collection { name } }
    }`;
    const send = (input: string) =>
      request(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
        body: `{"query":${JSON.stringify(create)},"variables":{"account":"${account.account_id}","input":${input}}}`,
      });
    const field = (options: string) =>
      `{"name":"Deep","handle":"deep","routing":"deep/:handle","blueprint":{"fields":[{"handle":"f","type":"text","options":${options}}]}}`;
    const deep = await send(field(`${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`));
    expect(deep.status, deep.text).toBe(400);
    expect(deep.body.errors[0].message).toMatch(/more than 64 levels deep/);
    expect(deep.text).not.toMatch(/Unexpected error|\bat .+\.(ts|js):\d+/);
    const surrogate = await send('{"name":"a\\ud800","handle":"lone","routing":"lone/:handle"}');
    expect(surrogate.body.errors[0].extensions.code, surrogate.text).toBe("UNPROCESSABLE_ENTITY");
    expect(surrogate.body.errors[0].extensions.details[0].path, surrogate.text).toBe("name");
    const fits = await send(field(`${'{"a":'.repeat(63)}1${"}".repeat(63)}`));
    expect(fits.body.data?.collectionCreate.created, fits.text).toBe(true);
  });

  it("refuses a body over 2 MB with a 413, declared or chunked, and keeps serving", async () => {
    const query = `{ collections(account_id: "${account.account_id}") { pagination { total } } }`;
    const padded = JSON.stringify({ query, variables: { pad: "x".repeat(3 * 1024 * 1024) } });
    const declared = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
      body: padded,
    });
    expect(declared.status, declared.text).toBe(413);
    expect(declared.body.errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    expect(declared.body.errors[0].extensions.details[0].path).toBe("body");

    const bytes = new TextEncoder().encode(padded);
    const chunked = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024)
            controller.enqueue(bytes.slice(at, at + 64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status, chunked.text).toBe(413);

    const fits = await graphql(query);
    expect(fits.body.data.collections.pagination.total, fits.text).toBeGreaterThanOrEqual(0);
  });
});
