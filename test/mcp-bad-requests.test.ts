// JSON-RPC requests to the tool interface whose params are not the protocol's (initialize without params, a
// cursor that is a number): invalid params (-32602) naming what is wrong, for every method the server
// answers, over HTTP (raw posts, as a probe sends them, and the SDK's client) and over stdio; never an
// internal error carrying Zod's issue list. An error nobody expected is still an internal error (-32603),
// masked and logged with its stack. Runs on SQLite, or PostgreSQL with TEST_DATABASE=postgres.
import type { Readable } from "node:stream";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, ListToolsResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { renameTable } from "./helpers/database.ts";
import { connectClient, type McpClient, mcpClient, postRpc } from "./helpers/mcp.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const root = new URL("..", import.meta.url).pathname;

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server, "Bad requests");
});
afterAll(() => server?.stop());

/** Requests the SDK would refuse deep in its handlers, and the path each answer must name. */
const malformed: { label: string; method: string; params?: unknown; path: string }[] = [
  { label: "initialize without params", method: "initialize", path: "params" },
  {
    label: "initialize with a number for protocolVersion",
    method: "initialize",
    params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: "probe", version: "1" } },
    path: "params.protocolVersion",
  },
  {
    label: "initialize without clientInfo",
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {} },
    path: "params.clientInfo",
  },
  {
    label: "tools/list with a number for cursor",
    method: "tools/list",
    params: { cursor: 5 },
    path: "params.cursor",
  },
  {
    label: "tools/call with an array for arguments",
    method: "tools/call",
    params: { name: "collections_list", arguments: ["blog"] },
    path: "params.arguments",
  },
  { label: "tools/call without a name", method: "tools/call", params: {}, path: "params.name" },
];

/** What the raw answer to one of them must be, whole: no Zod issue list, nothing internal. */
function expectInvalidParams(body: unknown, id: number, method: string, path: string) {
  expect(body).toEqual({
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid ${method} params: ${path}`,
      data: { details: [{ path, message: expect.any(String) }] },
    },
  });
  const [detail] = (body as any).error.data.details;
  expect(detail.message).not.toMatch(/[[\]{}\n]|invalid_type|ZodError/);
}

describe("over HTTP", () => {
  for (const [index, { label, method, params, path }] of malformed.entries()) {
    it(`answers ${label} with invalid params naming ${path}`, async () => {
      const before = server.output.length;
      const id = 100 + index;
      const response = await postRpc(server, account.token, {
        jsonrpc: "2.0",
        id,
        method,
        ...(params !== undefined && { params }),
      });
      expect(response.status, response.text).toBe(200);
      expectInvalidParams(response.body, id, method, path);
      // Log lines are written in the background: this request's own line first, then none at error level.
      const logged = () => server.output.slice(before).join("\n");
      await expect.poll(logged).toMatch(/"msg":"request".*"path":"\/v1\/mcp"/);
      expect(logged()).not.toMatch(/"level":"error"/);
    });
  }

  it("answers JSON that is no JSON-RPC message as an invalid request, not a parse error", async () => {
    for (const message of [
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: 5 },
      { jsonrpc: "2.0", id: 8, method: "ping", params: { _meta: 5 } },
      { jsonrpc: "1.0", id: 9, method: "ping" },
      { hello: "world" },
    ]) {
      const response = await postRpc(server, account.token, message);
      expect(response.status, response.text).toBe(400);
      expect(response.body, JSON.stringify(message)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
      });
    }
  });

  it("keeps answering a method it does not know as not found, whatever its params", async () => {
    const response = await postRpc(server, account.token, {
      jsonrpc: "2.0",
      id: 9,
      method: "resources/list",
      params: { cursor: 5 },
    });
    expect(response.body).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: ErrorCode.MethodNotFound, message: "Method not found" },
    });
  });

  it("answers the SDK's client the same, and its good requests as before", async () => {
    const mcp = await mcpClient(server, account.token);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("collections_list");
      const refused = mcp.client.request(
        { method: "tools/list", params: { cursor: 5 as unknown as string } },
        ListToolsResultSchema,
      );
      await expect(refused).rejects.toThrow(McpError);
      await expect(refused).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: "MCP error -32602: Invalid tools/list params: params.cursor",
        data: { details: [{ path: "params.cursor", message: expect.any(String) }] },
      });
      expect(await mcp.ok("collections_list")).toMatchObject({ data: [] });
    } finally {
      await mcp.close();
    }
  });
});

/** `cms mcp --token` on the server's database, its kept lookups off, and its stderr. */
async function stdioClient(): Promise<{ mcp: McpClient; stderr: () => string }> {
  const env = Object.fromEntries(
    Object.entries({ ...server.env, LOOKUP_CACHE_MB: "0" }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/cms.ts", "mcp", "--token", account.token],
    cwd: root,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  (transport.stderr as Readable | null)?.on("data", (chunk) => (stderr += chunk));
  return { mcp: await connectClient(transport, "stdio-bad-requests"), stderr: () => stderr };
}

describe("over stdio", () => {
  it("answers bad params as over HTTP, and masks and logs an error nobody expected", async () => {
    const { mcp, stderr } = await stdioClient();
    try {
      for (const { label, method, params, path } of malformed.filter((m) => m.method !== "initialize")) {
        const refused = mcp.client.request({ method, params } as never, ListToolsResultSchema);
        await expect(refused, label).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          message: `MCP error -32602: Invalid ${method} params: ${path}`,
        });
      }
      // A tool call's line comes after the refusals' (were any logged); then none is at error level.
      await mcp.client.callTool({ name: "collections_list", arguments: {} });
      await expect.poll(stderr).toMatch(/"msg":"tool call".*"tool":"collections_list"/);
      expect(stderr()).not.toMatch(/"level":"error"/);
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0);

      // The token is looked up on every call: with its table gone, tools/list fails inside the server.
      await renameTable(server, "ApiToken", "ApiTokenAway");
      let failed: unknown;
      try {
        failed = await mcp.client.listTools().catch((error: unknown) => error);
      } finally {
        await renameTable(server, "ApiTokenAway", "ApiToken");
      }
      expect(failed).toBeInstanceOf(McpError);
      expect(failed).toMatchObject({
        code: ErrorCode.InternalError,
        message: "MCP error -32603: Internal server error",
      });
      await expect.poll(stderr).toMatch(/"msg":"unexpected error".*ApiToken.*\\n\s+at /);
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
  });
});
