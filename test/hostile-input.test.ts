// Input that looks like something else: handles that start with an ID prefix,
// numbers past the double range (`1e999`, which JSON.parse reads as Infinity), bodies that are not UTF-8,
// and form posts whose Referer points off the site. Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expect422, expectCreated, expectError } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let graphql: (body: string | Uint8Array) => Promise<ApiResponse>;
/** A raw JSON body sent to a REST path, for what JSON.stringify cannot write (`1e999`, bad bytes). */
let sendRaw: (method: string, path: string, body: string | Uint8Array) => Promise<ApiResponse>;

/** 26 characters of the ID alphabet: with a prefix in front, the exact shape of an ID. */
const ID_BODY = "01m86qk4y29vy2ej45c6gzafpx";
const NON_FINITE = {
  error: "Validation failed",
  details: [{ path: "rating", message: "must be a finite number" }],
};
const NOT_UTF8 = { error: "Malformed JSON", details: [{ path: "body", message: "is not valid UTF-8 text" }] };
/** `{"title":"<0xff>"}`: JSON whose string holds a byte that is no UTF-8. */
const badTitle = Buffer.from([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  client = api(server, account);
  const headers = { authorization: `Bearer ${account.token}`, "content-type": "application/json" };
  // Bytes as fetch takes them (a copy on its own ArrayBuffer).
  const bytes = (body: string | Uint8Array) => (typeof body === "string" ? body : new Uint8Array(body));
  graphql = (body) => request(`${server.url}/graphql`, { method: "POST", headers, body: bytes(body) });
  sendRaw = (method, path, body) =>
    request(`${server.url}/v1/accounts/${account.account_id}${path}`, { method, headers, body: bytes(body) });
  await expectCreated(
    client.post("/collections", {
      name: "Reviews",
      handle: "clctn_main",
      routing: "reviews/:handle",
      blueprint: {
        title: "Review",
        handle: "blprt_main",
        fields: [
          { handle: "rating", type: "number" },
          { handle: "meta", type: "dictionary" },
          { handle: "related", type: "entity" },
        ],
      },
    }),
  );
  await expectCreated(
    client.post("/collections/clctn_main/entries", { title: "Main", handle: "cnety_main", rating: 4 }),
  );
}, 60_000);

afterAll(() => server?.stop());

describe("handles that start with their resource's ID prefix", () => {
  it("are accepted for every resource with handles and read back by handle and by ID", async () => {
    const created = {
      navigation: await expectCreated(client.post("/navigations", { title: "Main", handle: "nav_main" })),
      form: await expectCreated(
        client.post("/forms", {
          title: "Main form",
          handle: "form_main",
          collection_handle: "clctn_main",
          blueprint_handle: "blprt_main",
        }),
      ),
      global: await expectCreated(
        client.post("/globals", {
          name: "Main",
          handle: "stgbl_main",
          fields: [{ handle: "score", type: "number" }],
          score: 5,
        }),
      ),
      template: await expectCreated(
        client.post("/templates", { template: { title: "Main", handle: "tmplt_main", html: "<p>main</p>" } }),
      ),
    };
    const paths: Record<string, string> = {
      "/collections": "clctn_main",
      "/collections/clctn_main/entries": "cnety_main",
      "/blueprints": "blprt_main",
      "/navigations": "nav_main",
      "/forms": "form_main",
      "/globals": "stgbl_main",
      "/templates": "tmplt_main",
    };
    for (const [list, handle] of Object.entries(paths)) {
      const byHandle = await client.get(`${list}/${handle}`);
      expect(byHandle.status, `${list}/${handle}: ${byHandle.text}`).toBe(200);
      expect(byHandle.body.handle).toBe(handle);
      const byId = await client.get(`${list}/${byHandle.body.id}`);
      expect(byId.status, `${list}/${byHandle.body.id}`).toBe(200);
      expect(byId.body).toEqual(byHandle.body);
    }
    expect(created.form).toMatchObject({ collection_handle: "clctn_main", blueprint_handle: "blprt_main" });
    expect(created.global.score).toBe(5);
    expect(created.navigation.handle).toBe("nav_main");
  });

  it("are written through a handle too: PATCH by handle, references by handle", async () => {
    const patched = await client.patch("/navigations/nav_main", { title: "Main menu" });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ handle: "nav_main", title: "Main menu" });
    const item = await expectCreated(
      client.post("/navigations/nav_main/items", {
        title: "Main entry",
        collection_handle: "clctn_main",
        entry_handle: "cnety_main",
      }),
    );
    const main = (await client.get("/collections/clctn_main/entries/cnety_main")).body;
    expect(item.entity).toMatchObject({ id: main.id, handle: "cnety_main" });
    // A bare entry handle in an entity field resolves in the entry's own collection.
    const linked = await expectCreated(
      client.post("/collections/clctn_main/entries", {
        title: "Link",
        handle: "linked",
        related: "cnety_main",
      }),
    );
    expect(linked.related).toMatchObject({ id: main.id, handle: "cnety_main" });
  });

  it("are refused (422 on handle) when they have an ID's whole shape, which a path could not tell apart", async () => {
    expect422(await client.post("/navigations", { title: "X", handle: `nav_${ID_BODY}` }), "handle");
    expect422(
      await client.post("/collections", { name: "X", handle: `clctn_${ID_BODY}`, routing: "x/:handle" }),
      "handle",
    );
    expect422(
      await client.post("/collections/clctn_main/entries", { title: "X", handle: `cnety_${ID_BODY}` }),
      "handle",
    );
    expect422(await client.post("/globals", { name: "X", handle: `stgbl_${ID_BODY}` }), "handle");
    expect422(
      await client.post("/templates", { template: { title: "X", handle: `tmplt_${ID_BODY}`, html: "x" } }),
      "handle",
    );
    // Another resource's ID shape is an ordinary handle.
    expect(
      (await expectCreated(client.post("/navigations", { title: "Y", handle: `clctn_${ID_BODY}` }))).handle,
    ).toBe(`clctn_${ID_BODY}`);
    // An ID-shaped path segment is looked up as an ID only: an unknown one is 404, not a handle.
    expectError(await client.get(`/navigations/nav_${ID_BODY}`), 404);
  });
});

describe("a number past the double range (1e999)", () => {
  const entryMutation = (input: string) =>
    JSON.stringify({
      query: `mutation { entryCreate(account_id: "${account.account_id}", collection_id: "clctn_main", input: ${input}) { created } }`,
    });

  it("is a 422 on create over REST and GraphQL alike, and nothing is stored", async () => {
    const rest = await sendRaw(
      "POST",
      "/collections/clctn_main/entries",
      '{"title":"Inf","handle":"inf","rating":1e999}',
    );
    expectError(rest, 422, "rating");
    expect(rest.body).toEqual(NON_FINITE);
    const viaGraphql = await graphql(entryMutation('{title: "Inf", handle: "inf", values: {rating: 1e999}}'));
    expect(viaGraphql.body.errors?.[0]?.extensions?.details, viaGraphql.text).toEqual(NON_FINITE.details);
    expectError(await client.get("/collections/clctn_main/entries/inf"), 404);
  });

  it("is a 422 on PATCH, and the stored value stays", async () => {
    const before = (await client.get("/collections/clctn_main/entries/cnety_main")).body;
    expect(before.rating).toBe(4);
    for (const body of ['{"rating":1e999}', '{"rating":-1e999}']) {
      const patched = await sendRaw("PATCH", "/collections/clctn_main/entries/cnety_main", body);
      expect(patched.body, body).toEqual(NON_FINITE);
    }
    const nested = await sendRaw(
      "PATCH",
      "/collections/clctn_main/entries/cnety_main",
      '{"meta":{"x":[1,1e999]}}',
    );
    expectError(nested, 422, "meta.x[1]");
    const after = (await client.get("/collections/clctn_main/entries/cnety_main")).body;
    expect(after).toEqual(before);
  });

  it("is a 422 in a global's values and a field's options, which stay as they were", async () => {
    const before = (await client.get("/globals/stgbl_main")).body;
    expectError(await sendRaw("PATCH", "/globals/stgbl_main", '{"score":1e999}'), 422, "score");
    expectError(
      await sendRaw(
        "POST",
        "/globals",
        '{"name":"Inf","handle":"inf","fields":[{"handle":"score","type":"number"}],"score":1e999}',
      ),
      422,
      "score",
    );
    expect((await client.get("/globals/stgbl_main")).body).toEqual(before);
    expectError(await client.get("/globals/inf"), 404);
    expectError(
      await sendRaw(
        "POST",
        "/blueprints",
        '{"title":"Inf","handle":"inf","fields":[{"handle":"a","type":"text","options":{"max":1e999}}]}',
      ),
      422,
      "fields[0].options.max",
    );
    expectError(await client.get("/blueprints/inf"), 404);
  });
});

describe("query parameters a route does not read from the query", () => {
  it("leave a create's body alone: `input` comes from the body only", async () => {
    const path = "/collections/clctn_main/entries?input=%7Bnot%20json&title=Other";
    const created = await expectCreated(client.post(path, { title: "From the body", handle: "from-body" }));
    expect(created).toMatchObject({ title: "From the body", handle: "from-body" });
    const json = await expectCreated(
      client.post(`/collections/clctn_main/entries?input=${encodeURIComponent('{"title":"Query"}')}`, {
        title: "Body wins",
        handle: "body-wins",
      }),
    );
    expect(json.title).toBe("Body wins");
  });
});

describe("a JSON body that is not UTF-8", () => {
  it("is a 400 on REST POST and PATCH, and nothing is stored or changed", async () => {
    const created = await sendRaw("POST", "/navigations", badTitle);
    expectError(created, 400, "body");
    expect(created.body).toEqual(NOT_UTF8);
    const before = (await client.get("/navigations/nav_main")).body;
    const patched = await sendRaw("PATCH", "/navigations/nav_main", badTitle);
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual(NOT_UTF8);
    expect((await client.get("/navigations/nav_main")).body).toEqual(before);
    expect(
      (await client.get("/navigations")).body.data.map((nav: { title: string }) => nav.title),
    ).not.toContain("\ufffd");
  });

  it("is a 400 on GraphQL, and the operation does not run", async () => {
    const query = `mutation { navigationCreate(account_id: "${account.account_id}", input: {title: "BAD", handle: "bad-utf8"}) { created } }`;
    const text = JSON.stringify({ query }).replace("BAD", "\u0000");
    const bytes = Buffer.from(text, "utf8");
    bytes[bytes.indexOf(0x00)] = 0xff;
    const answer = await graphql(bytes);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({
      message: "Malformed JSON",
      extensions: { details: NOT_UTF8.details },
    });
    expectError(await client.get("/navigations/bad-utf8"), 404);
  });

  it("still takes every valid UTF-8 character, multi-byte ones included", async () => {
    const title = "Café ✓ 😀 \ufffd";
    const created = await sendRaw(
      "POST",
      "/navigations",
      Buffer.from(JSON.stringify({ title, handle: "utf8-ok" })),
    );
    expect(created.status, created.text).toBe(201);
    expect((await client.get("/navigations/utf8-ok")).body.title).toBe(title);
  });
});

describe("a form post's Referer", () => {
  const submit = (referer?: string) =>
    siteRequest(server, "/cms/form_main/submit", account.domain, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(referer === undefined ? {} : { referer }),
      },
      body: "fields[rating]=3",
    });

  it("is not followed off the site: the visitor goes to /", async () => {
    for (const referer of [
      "https://evil.example/phish",
      `https://${account.domain}.evil.example/`,
      `https://evil.example/${account.domain}`,
      "javascript:alert(1)",
      "//evil.example/",
      "not a url",
    ]) {
      const answer = await submit(referer);
      expect(answer.status, referer).toBe(303);
      expect(answer.headers.location, referer).toBe("/");
    }
    expect((await submit()).headers.location).toBe("/");
  });

  it("is followed when it is a page of the site the form was posted to, any port", async () => {
    const page = `http://${account.domain}:8080/contact?from=footer`;
    expect((await submit(page)).headers.location).toBe(page);
    const upper = `https://${account.domain.toUpperCase()}/about`;
    expect((await submit(upper)).headers.location).toBe(`https://${account.domain}/about`);
    // Credentials in the header are not carried into the redirect.
    expect((await submit(`https://user:pw@${account.domain}/x`)).headers.location).toBe(
      `https://${account.domain}/x`,
    );
  });
});
