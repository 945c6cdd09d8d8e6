// Concurrency: 50 simultaneous POSTs of one new handle make exactly one record of every kind, and every
// answer is a 2xx or a documented 422 (never a 5xx); a collection created with an inline blueprint
// appears with exactly one blueprint, never a half-written pair. Concurrent PATCHes of different fields
// never lose each other's values (entries: entries.test.ts; globals here, by PATCH).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { expectCreated, expectError } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const RACERS = 50;
let server: TestServer;
let client: Api;

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server, "Racers"));
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "posts/:handle",
      blueprint: { fields: [{ handle: "body", type: "text" }] },
    }),
  );
});
afterAll(() => server?.stop());

/** Every answer is 201 once and otherwise 200 (idempotent create) or 422 on handle; returns the 201. */
function expectOneCreated(responses: ApiResponse[], others: 200 | 422, label = ""): ApiResponse {
  const unexpected = responses.filter((r) => r.status !== 201 && r.status !== others);
  expect(unexpected.map((r) => `${r.status} ${r.text}`).slice(0, 3), label).toEqual([]);
  const created = responses.filter((r) => r.status === 201);
  expect(created, `${label}: ${responses[0]?.text}`).toHaveLength(1);
  for (const response of responses.filter((r) => r.status === 422)) expectError(response, 422, "handle");
  const first = created[0] as ApiResponse;
  if (others === 200) for (const response of responses) expect(response.body.id).toBe(first.body.id);
  return first;
}

const race = (send: (i: number) => Promise<ApiResponse>) =>
  Promise.all(Array.from({ length: RACERS }, (_, i) => send(i)));

describe(`${RACERS} concurrent POSTs of one new handle`, () => {
  it("make one entry", async () => {
    const responses = await race((i) =>
      client.post("/collections/posts/entries", { title: `Racer ${i}`, handle: "race", body: `${i}` }),
    );
    expectOneCreated(responses, 200);
    const list = await client.get("/collections/posts/entries?handle=race");
    expect(list.body.pagination.total).toBe(1);
  });

  it("make one collection with one inline blueprint", async () => {
    const responses = await race((i) =>
      client.post("/collections", {
        name: `Race ${i}`,
        handle: "race",
        routing: "race/:handle",
        blueprint: { handle: "race-shape", fields: [{ handle: "body", type: "text" }] },
      }),
    );
    const created = expectOneCreated(responses, 200);
    expect((await client.get("/collections?handle=race")).body.pagination.total).toBe(1);
    const blueprints = (await client.get("/blueprints")).body.data.filter(
      (blueprint: any) => blueprint.handle === "race-shape",
    );
    expect(blueprints).toHaveLength(1);
    expect(created.body.blueprint_handles).toEqual(["race-shape"]);
  });

  it("make one navigation, form, global, blueprint and template", async () => {
    const kinds: [path: string, body: (i: number) => unknown, others: 200 | 422][] = [
      ["/navigations", (i) => ({ title: `Nav ${i}`, handle: "race-nav" }), 200],
      [
        "/forms",
        (i) => ({
          title: `Form ${i}`,
          handle: "race-form",
          collection_handle: "posts",
          blueprint_handle: "posts",
        }),
        422,
      ],
      ["/globals", (i) => ({ name: `Global ${i}`, handle: "race_global" }), 422],
      ["/blueprints", (i) => ({ title: `Blueprint ${i}`, handle: "race-blueprint" }), 422],
      [
        "/templates",
        (i) => ({ name: `Template ${i}`, handle: "race-template", html: "<p>{{ i }}</p>" }),
        422,
      ],
    ];
    for (const [path, body, others] of kinds) {
      const responses = await race((i) => client.post(path, body(i)));
      const statuses = [...new Set(responses.map((r) => r.status))].sort();
      expect(
        statuses.every((status) => status < 500),
        `${path}: ${statuses}`,
      ).toBe(true);
      expectOneCreated(responses, others, path);
    }
  });
});

describe("concurrent PATCHes of a global", () => {
  it("never lose a value written by another request", async () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({ handle: `f${i}`, type: "text" }));
    const global = await expectCreated(client.post("/globals", { name: "Busy", handle: "busy", fields }));
    const responses = await Promise.all(
      fields.map((field, i) => client.patch(`/globals/${global.id}`, { [field.handle]: `value ${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(fields.map(() => 200));
    const read = await client.get(`/globals/${global.id}`);
    for (const [i, field] of fields.entries()) expect(read.body[field.handle]).toBe(`value ${i}`);
  });
});

describe("concurrent PUTs of a blueprint's fields", () => {
  // A PUT lists the fields to keep; what it leaves out of a kept field (display, options) comes from
  // the stored one. Each of these PUTs sets the options of one field only: all of them must survive.
  it("never lose a field's options set by another request", async () => {
    const handles = Array.from({ length: 20 }, (_, i) => `f${i}`);
    const blueprint = await expectCreated(
      client.post("/blueprints", {
        title: "Grows",
        handle: "grows",
        fields: handles.map((handle) => ({ handle, type: "text" })),
      }),
    );
    const responses = await Promise.all(
      handles.map((mine, i) =>
        client.put(`/blueprints/${blueprint.id}`, {
          fields: handles.map((handle) => ({
            handle,
            type: "text",
            ...(handle === mine && { options: { placeholder: `set by ${i}` } }),
          })),
        }),
      ),
    );
    expect(responses.map((r) => (r.status === 200 ? 200 : r.text))).toEqual(handles.map(() => 200));
    const read = await client.get(`/blueprints/${blueprint.id}`);
    for (const [i, handle] of handles.entries()) {
      const field = read.body.fields.find((candidate: any) => candidate.handle === handle);
      expect(field?.options, handle).toEqual({ placeholder: `set by ${i}` });
    }
  });
});
