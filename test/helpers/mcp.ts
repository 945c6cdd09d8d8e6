// The tool interface (MCP) as an assistant reaches it: the SDK's own client over Streamable HTTP, tool
// answers checked against the documented shapes, raw JSON-RPC posts for what the client hides (statuses,
// headers), and the bytes a site serves.
import { request as httpRequest } from "node:http";
import type { Readable } from "node:stream";
import { deflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { expect } from "vitest";
import { type ApiResponse, request } from "./api.ts";
import { expectNoInternals } from "./assertions.ts";
import { builtOrSource, type TestServer } from "./server.ts";

export const MCP_PATH = "/v1/mcp";

/** What `callTool` answers (the SDK's result, loosely typed). */
export interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
}

export interface McpClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** The structured content of a call that must work (its text is the same JSON). */
  ok(name: string, args?: Record<string, unknown>): Promise<any>;
  /** The error body of a call that must fail with `status` (details naming `paths`, when given). */
  fails(name: string, args: Record<string, unknown>, status: number, ...paths: string[]): Promise<ToolError>;
  close(): Promise<void>;
}

export interface ToolError {
  error: string;
  status: number;
  details: { path: string; message: string }[];
}

/**
 * `cms mcp <args>` as a desktop assistant starts it, on `server`'s database (its settings); the SDK's stdio
 * client connected to it, and its stderr collected.
 */
export async function stdioClient(
  server: TestServer,
  args: string[],
  name = "stdio-test",
  overrides: Record<string, string> = {},
): Promise<{ mcp: McpClient; stderr: () => string }> {
  const env = Object.fromEntries(
    Object.entries({ ...server.env, ...overrides }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...builtOrSource("cms"), "mcp", ...args],
    cwd: new URL("../..", import.meta.url).pathname,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  (transport.stderr as Readable | null)?.on("data", (chunk) => (stderr += chunk));
  const mcp = await connectClient(transport, name);
  return { mcp, stderr: () => stderr };
}

/** An SDK client connected over any transport. */
export async function connectClient(transport: Transport, name = "mcp-test"): Promise<McpClient> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  const call = (toolName: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name: toolName, arguments: args }) as Promise<ToolAnswer>;
  return {
    client,
    call,
    ok: async (toolName, args = {}) => expectToolOk(await call(toolName, args), toolName),
    fails: async (toolName, args, status, ...paths) =>
      expectToolError(await call(toolName, args), status, toolName, ...paths),
    close: () => client.close(),
  };
}

/** A client of `POST /v1/mcp` with `token`. */
export function mcpClient(server: TestServer, token: string, name?: string): Promise<McpClient> {
  return connectClient(
    new StreamableHTTPClientTransport(new URL(MCP_PATH, server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
    name,
  );
}

/** A successful answer: structured content, and the same JSON as its one text. */
export function expectToolOk(answer: ToolAnswer, label = ""): any {
  const text = answer.content?.[0]?.text ?? "";
  expect(answer.isError, `${label}: ${text}`).toBeFalsy();
  expect(answer.content, label).toHaveLength(1);
  expect(answer.content[0]?.type, label).toBe("text");
  expect(answer.structuredContent, label).toBeTypeOf("object");
  expect(JSON.parse(text), label).toEqual(answer.structuredContent);
  return answer.structuredContent;
}

/** A site_preview answer: structured `{status, html, ...}` and the HTML itself as its one text. */
export function expectPreview(
  answer: ToolAnswer,
  label = "",
): { status: number; html: string } & Record<string, any> {
  const text = answer.content?.[0]?.text ?? "";
  expect(answer.isError, `${label}: ${text}`).toBeFalsy();
  expect(answer.content, label).toHaveLength(1);
  expect(answer.content[0]?.type, label).toBe("text");
  const body = answer.structuredContent as { status: number; html: string };
  expect(body.html, label).toBeTypeOf("string");
  expect(text, label).toBe(body.html);
  return body;
}

/**
 * A tool error: `isError`, structured content exactly `{error, status, details: [{path, message}]}` with
 * `status`, the same JSON as its text, nothing internal; given paths, the details name exactly those.
 */
export function expectToolError(
  answer: ToolAnswer,
  status: number,
  label = "",
  ...paths: string[]
): ToolError {
  const text = answer.content?.[0]?.text ?? "";
  expect(answer.isError, `${label}: ${text}`).toBe(true);
  const body = answer.structuredContent as ToolError;
  expect(Object.keys(body ?? {}).sort(), label).toEqual(["details", "error", "status"]);
  expect(body.status, `${label}: ${text}`).toBe(status);
  expect(body.error, label).toBeTypeOf("string");
  expect(body.error.length, label).toBeGreaterThan(0);
  expect(Array.isArray(body.details), label).toBe(true);
  for (const detail of body.details) {
    expect(Object.keys(detail).sort(), label).toEqual(["message", "path"]);
    expect(detail.message, label).toBeTypeOf("string");
  }
  expect(JSON.parse(text), label).toEqual(body);
  expectNoInternals(text, label);
  if (paths.length > 0)
    expect(body.details.map((detail) => detail.path).sort(), `${label}: ${text}`).toEqual([...paths].sort());
  return body;
}

/** One JSON-RPC message posted as the SDK would post it, without the client (to see statuses). */
export function postRpc(
  server: TestServer,
  token: string | undefined,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return request(`${server.url}${MCP_PATH}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

let rpcId = 0;
/** A `tools/call` message (no initialize needed: the transport is stateless). */
export function toolCallMessage(name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } };
}

/** The server's stdout lines that are JSON objects with `msg: "tool call"`. */
export function toolCallLogs(server: TestServer): Record<string, unknown>[] {
  return server.output
    .filter((line) => line.startsWith("{"))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .filter((line) => line.msg === "tool call");
}

/** The exact bytes an account's site serves at `path` (Node's fetch cannot set Host). */
export function siteBytes(
  server: TestServer,
  path: string,
  host: string,
): Promise<{ status: number; type?: string; bytes: Buffer }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers["content-type"],
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid grey PNG of `size`×`size` pixels whose shade is `shade` (so two are told apart). */
export function png(size = 4, shade = 128): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter, no interlace
  const rows = Buffer.alloc(size * (size + 1), shade);
  for (let y = 0; y < size; y++) rows[y * (size + 1)] = 0; // each row's filter byte: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
