import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let client: Api;

beforeAll(async () => {
  server = await startServer();
  client = api(server, await createAccount(server));
});
afterAll(() => server?.stop());

describe("smoke", () => {
  it("creates a collection and reads it back by handle", async () => {
    const created = await client.post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
    });
    expect(created.status).toBe(201);
    const read = await client.get("/collections/blog");
    expect(read.body).toMatchObject({ id: created.body.id, handle: "blog", entries_count: 0 });
  });
});
