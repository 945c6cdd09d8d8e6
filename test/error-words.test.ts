// Every 422 detail is worded by the project: values refused by GraphQL's own coercion (a wrong type, an
// Int past 32 bits, an unknown enum value, a missing field) and by zod rules declared without a message
// answer what the value must be, never the libraries' phrasing ("Int cannot represent …", "Too small: …").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;

/** Words of graphql-js and zod that a detail must not carry. */
const libraryWords =
  /cannot represent|too small|too big|\bExpected\b|invalid input|invalid option|invalid string|unrecognized key|non-nullable|is not defined by type|of required type|does not exist in|Variable "\$/i;

function expectOwnWords(response: ApiResponse, path: string, message: string | RegExp, label: string) {
  expect(response.status, `${label}: ${response.text}`).toBe(422);
  const details: { path: string; message: string }[] = response.body.details;
  for (const detail of details) {
    expect(detail.message, `${label}: ${response.text}`).not.toMatch(libraryWords);
    expect(detail.message, `${label}: ${response.text}`).toMatch(/^(must|is|has|may) /);
  }
  expect(details, label).toContainEqual({
    path,
    message: typeof message === "string" ? message : expect.stringMatching(message),
  });
}

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server));
  expect((await client.post("/navigations", { title: "Main", handle: "main" })).status).toBe(201);
  const collection = await client.post("/collections", {
    name: "Blog",
    handle: "blog",
    routing: "blog/:handle",
    blueprint: { fields: [{ handle: "body", type: "text" }] },
  });
  expect(collection.status, collection.text).toBe(201);
});

afterAll(async () => {
  await server?.stop();
});

const int32 = "must be a whole number between -2147483648 and 2147483647";

describe("422 details in the project's words", () => {
  it("an Int past 32 bits, or not a whole number", async () => {
    for (const priority of [3000000000, -3000000000, 1.5, "high"]) {
      const response = await client.post("/navigations/main/items", { title: "X", url: "/", priority });
      expectOwnWords(response, "priority", int32, `priority ${priority}`);
    }
    const entry = await client.post("/collections/blog/entries", {
      handle: "a",
      title: "A",
      position: 2 ** 40,
    });
    expectOwnWords(entry, "position", int32, "entry position");
  });

  it("an empty string where a rule declared no message of its own", async () => {
    const response = await client.post("/collections", {
      name: "Shop",
      handle: "shop",
      routing: "shop/:handle",
      blueprint: { title: "" },
    });
    expectOwnWords(response, "blueprint.title", "must not be empty", "blueprint.title");
    const long = await client.post("/collections", {
      name: "Shop",
      handle: "shop",
      routing: "shop/:handle",
      blueprint: { title: "x".repeat(201) },
    });
    expectOwnWords(long, "blueprint.title", "must be at most 200 characters", "long blueprint.title");
  });

  it("a wrong type: string, boolean, object", async () => {
    const response = await client.post("/collections", {
      name: 5,
      handle: "shop",
      routing: "shop/:handle",
      root_routing: "yes",
    });
    expectOwnWords(response, "name", "must be a string", "name");
    expectOwnWords(response, "root_routing", "must be true or false", "root_routing");
    const blueprint = await client.post("/collections", {
      name: "Shop",
      handle: "shop",
      routing: "shop/:handle",
      blueprint: "card",
    });
    expectOwnWords(blueprint, "blueprint", "must be an object", "blueprint");
  });

  it("an unknown enum value names the values allowed", async () => {
    const response = await client.post("/collections", {
      name: "Shop",
      handle: "shop",
      routing: "shop/:handle",
      orderable: "sideways",
    });
    expectOwnWords(response, "orderable", /^must be one of .*ascending/, "orderable");
    const field = await client.post("/blueprints", {
      title: "Card",
      fields: [{ handle: "a", type: "bogus" }],
    });
    expectOwnWords(field, "fields[0].type", /^must be one of text, rich_text/, "field type");
  });

  it("a missing required field, a null one, an unknown nested field", async () => {
    const missing = await client.post("/blueprints", { title: "Card", fields: [{ handle: "a" }] });
    expectOwnWords(missing, "fields[0].type", "is required", "missing type");
    const nulled = await client.post("/blueprints", { title: "Card", fields: [null] });
    expectOwnWords(nulled, "fields[0]", "must not be null", "null field");
    const unknown = await client.post("/blueprints", {
      title: "Card",
      fields: [{ handle: "a", type: "text", colour: "red" }],
    });
    expectOwnWords(unknown, "fields[0].colour", /^is not/, "unknown nested field");
  });

  it("query parameters and dates", async () => {
    const page = await client.get("/collections?page=1.5");
    expectOwnWords(page, "page", /^must be a whole number/, "page");
    // A revision number is any 32-bit whole number: past 9 digits too, up to the bound.
    const templates = await client.get("/templates");
    const template = templates.body.data[0]?.id ?? "tmpl_none";
    const high = await client.get(`/templates/${template}/revisions/2000000000`);
    expect(high.status, high.text).toBe(404);
    const past = await client.get(`/templates/${template}/revisions/3000000000`);
    expectOwnWords(past, "revision", int32, "revision past 32 bits");
    const date = await client.post("/collections/blog/entries", {
      handle: "b",
      title: "B",
      published_at: "yesterday",
    });
    expectOwnWords(date, "published_at", /^is not .*date/, "published_at");
    const status = await client.post("/webhooks", { url: "https://example.invalid/", events: ["*"] });
    expect(status.status, status.text).toBe(201);
    const deliveries = await client.get(`/webhooks/${status.body.id}/deliveries?status=lost`);
    expectOwnWords(deliveries, "status", /^must be /, "delivery status");
  });
});
