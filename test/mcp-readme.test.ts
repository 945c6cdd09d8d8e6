// The README's tool list is what the server lists: a live server's tools/list (write token), written as
// `npm run docs:tools` writes it, must be in the README word for word.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { toolListMarkdown } from "../src/mcp/tool-list.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

test("the README lists the tools the server lists, in its order", async () => {
  const { token } = await createAccount(server);
  const client = new Client({ name: "readme-check", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/v1/mcp", server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const { tools } = await client.listTools();
  await client.close();
  expect(tools.length).toBeGreaterThanOrEqual(30);
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  expect(readme).toContain(toolListMarkdown(tools));
});
