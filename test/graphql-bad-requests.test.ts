// Requests to /graphql that go wrong before any operation is read: `variables` or `extensions` that are
// not JSON in a GET's query string or a urlencoded form, a multipart body (GraphQL uploads are not taken:
// files are uploaded over REST) or a body of another type. Each is a 4xx with one GraphQL error naming
// what is wrong, never a masked 500. An error nobody expected is still masked, and logged with its stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { renameTable } from "./helpers/database.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let rest: Api;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Bad requests");
  rest = api(server, account);
  const collection = await rest.post("/collections", {
    name: "Notes",
    handle: "notes",
    routing: "notes/:handle",
    blueprint: { handle: "note_fields", fields: [{ handle: "dict", type: "dictionary" }] },
  });
  expect(collection.status, collection.text).toBe(201);
});
afterAll(() => server?.stop());

const auth = () => ({ authorization: `Bearer ${account.token}` });

function get(params: Record<string, string>) {
  return request(`${server.url}/graphql?${new URLSearchParams(params)}`, { headers: auth() });
}

function postForm(params: Record<string, string>) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
}

/** A multipart request as GraphQL upload clients send it (graphql-multipart-request-spec). */
function postMultipart(operations: unknown, map: string) {
  const form = new FormData();
  form.set("operations", JSON.stringify(operations));
  form.set("map", map);
  form.set("0", new Blob(["hello\n"], { type: "text/plain" }), "hostname");
  return request(`${server.url}/graphql`, { method: "POST", headers: auth(), body: form });
}

/** The server's log lines since `before`, as one text. */
const logSince = (before: number) => server.output.slice(before).join("\n");

describe("variables and extensions that are not JSON", () => {
  const senders = { GET: get, "a urlencoded form": postForm };

  for (const [how, send] of Object.entries(senders)) {
    for (const param of ["variables", "extensions"]) {
      it(`answers ${param} that are not JSON, sent in ${how}, with a 400 naming them`, async () => {
        const before = server.output.length;
        const response = await send({ query: "{ __typename }", [param]: "{bad" });
        expect(response.status, response.text).toBe(400);
        // As a POST body that is not JSON is answered: one error, code BAD_REQUEST, no data.
        expect(response.body).toEqual({
          errors: [
            {
              message: `"${param}" param is not valid JSON.`,
              extensions: { code: "BAD_REQUEST", details: [{ path: param, message: "is not valid JSON" }] },
            },
          ],
        });
        // Log lines are written in the background: this request's own line first, then none at error level.
        await expect.poll(() => logSince(before)).toMatch(/"msg":"request".*"path":"\/graphql"/);
        expect(logSince(before)).not.toMatch(/"level":"error"/);
      });
    }
  }

  it("still reads good ones, and refuses JSON that is not an object as before", async () => {
    const query = "query Count($account: ID!) { collections(account_id: $account) { pagination { total } } }";
    const variables = JSON.stringify({ account: account.account_id });
    for (const send of Object.values(senders)) {
      const response = await send({ query, variables, extensions: "{}" });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ data: { collections: { pagination: { total: 1 } } } });

      const number = await send({ query: "{ __typename }", variables: "5" });
      expect(number.status, number.text).toBe(400);
      expect(number.body.errors).toEqual([
        {
          message: 'Expected "variables" param to be empty or an object, but given number.',
          extensions: { code: "BAD_REQUEST", details: [] },
        },
      ]);
    }
  });
});

describe("bodies /graphql does not take", () => {
  const unsupported = {
    errors: [
      {
        message: "Unsupported Media Type: POST a JSON body (application/json)",
        extensions: {
          code: "UNSUPPORTED_MEDIA_TYPE",
          details: [
            {
              path: "content-type",
              message:
                "must be application/json, application/graphql+json, application/graphql or application/x-www-form-urlencoded",
            },
          ],
        },
      },
    ],
  };

  it("refuses a multipart upload, whatever its map, with a 415", async () => {
    for (const map of ['{"0":5}', '{"0":[5]}', '{"0":[null]}', '{"0":["variables.file"]}']) {
      const response = await postMultipart({ query: "{ __typename }" }, map);
      expect(response.status, `${map}: ${response.text}`).toBe(415);
      expect(response.body, map).toEqual(unsupported);
    }
  });

  it("stores nothing from a file mapped into a JSON variable", async () => {
    const collection = (await rest.get("/collections/notes")).body;
    const query = `mutation Create($input: EntryCreateInput!) {
      entryCreate(account_id: "${account.account_id}", collection_id: "${collection.id}", input: $input) {
        entry { id }
      }
    }`;
    const input = { handle: "uploaded", title: "Uploaded", values: { dict: null } };
    const response = await postMultipart(
      { query, variables: { input } },
      JSON.stringify({ 0: ["variables.input.values.dict"] }),
    );
    expect(response.status, response.text).toBe(415);
    expect(response.body).toEqual(unsupported);
    expect(response.text).not.toMatch(/hostname|Blob|File|Symbol/);
    const entry = await rest.get("/collections/notes/entries/uploaded");
    expect(entry.status, entry.text).toBe(404);
  });

  it("refuses a body of another type, or of no type, with the same 415", async () => {
    for (const type of ["text/plain", "application/xml", null]) {
      const headers: Record<string, string> = auth();
      if (type) headers["content-type"] = type;
      // A Blob body without a type sends no Content-Type header.
      const response = await request(`${server.url}/graphql`, {
        method: "POST",
        headers,
        body: new Blob(['{"query":"{ __typename }"}']),
      });
      expect(response.status, `${type}: ${response.text}`).toBe(415);
      expect(response.body, String(type)).toEqual(unsupported);
    }
  });

  it("still answers JSON, GraphQL text and urlencoded posts", async () => {
    const json = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(json.body).toEqual({ data: { __typename: "Query" } });
    const text = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/graphql" },
      body: "{ __typename }",
    });
    expect(text.body).toEqual({ data: { __typename: "Query" } });
    expect((await postForm({ query: "{ __typename }" })).body).toEqual({ data: { __typename: "Query" } });
  });
});

describe("an error nobody expected", () => {
  it("is masked in the answer and logged with its stack", async () => {
    // A query no other test runs, so that no answer of it is kept in the read cache.
    const query = `{ collections(account_id: "${account.account_id}", page: 7) { data { name } } }`;
    const before = server.output.length;
    await renameTable(server, "Collection", "CollectionAway");
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${server.url}/graphql`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
    } finally {
      await renameTable(server, "CollectionAway", "Collection");
    }
    expect(response.body.errors, response.text).toEqual([
      { message: "Unexpected error.", path: ["collections"], extensions: { code: "INTERNAL_SERVER_ERROR" } },
    ]);
    expect(response.text).not.toMatch(/does not exist|prisma|\n\s+at /i);
    await expect.poll(() => logSince(before)).toMatch(/"msg":"unexpected error".*Collection.*\\n\s+at /);
    expect(logSince(before).match(/"msg":"unexpected error"/g)).toHaveLength(1);
  });
});
