// The tool interface at POST /v1/mcp (content-api.md: "a separate tool interface"): MCP's Streamable HTTP
// transport, stateless (a server per request, answers as JSON), authenticated with the API's bearer
// tokens. One JSON-RPC message per request, so that each tool call is one request for the rate limit and
// the request log; the body is read within the upload limit (assets_upload sends base64) and checked as
// REST bodies are (depth, unpaired surrogates) before the SDK sees it.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { GraphQLSchema } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { readJsonBody } from "../http/json-body.ts";
import type { Log } from "../log.ts";
import { type ApiError, toApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { createOperations } from "./operation.ts";
import { checkingParams } from "./params-check.ts";
import { createMcpServer } from "./server.ts";
import { buildTools } from "./tools.ts";

export const MCP_PATH = "/v1/mcp";

export interface McpOptions {
  schema: GraphQLSchema;
  bodyLimit: number;
  log: Log;
}

export function createMcpHandler({ schema, bodyLimit, log }: McpOptions) {
  const tools = buildTools(schema);
  const run = createOperations(schema);

  return async function handleMcp(request: Request, context: () => Context): Promise<Response> {
    if (request.method !== "POST")
      return rpcError(
        405,
        -32000,
        "Method not allowed: this server is stateless, POST one JSON-RPC message",
        {
          allow: "POST",
        },
      );
    const ctx = context();
    if (!(await ctx.viewer()))
      return rpcError(401, -32001, "Missing or invalid bearer token", { "www-authenticate": "Bearer" });
    let body: unknown;
    try {
      body = await readJsonBody(request, bodyLimit);
    } catch (error) {
      const apiError = toApiError(error);
      // Not JSON at all is the protocol's parse error; JSON it cannot take (too large, too deep) is invalid.
      const code = apiError.details[0]?.message === "is not valid JSON" ? -32700 : -32600;
      return rpcError(apiError.status, code, apiError.message, {}, apiError.details);
    }
    if (Array.isArray(body))
      return rpcError(400, -32600, "Batches are not supported: send one JSON-RPC message per request");
    // JSON that is no JSON-RPC message (params that are not an object, say) is an invalid request: the
    // SDK's transport would call it a parse error.
    const message = JSONRPCMessageSchema.safeParse(body);
    if (!message.success) return rpcError(400, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
    const server = createMcpServer(tools, { context, run, log });
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(checkingParams(transport));
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  };
}

function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  details: ApiError["details"] = [],
): Response {
  const error = { code, message, ...(details.length > 0 && { data: { details } }) };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
