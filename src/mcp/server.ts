// The MCP server of one caller: its tools (a read-only token sees only the read tools) and their calls.
// Built per HTTP request (stateless transport) or once per stdio connection, over the same tool table.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { publicError } from "../http/public-error.ts";
import type { Log } from "../log.ts";
import { callTool, type ToolSession } from "./run-tool.ts";
import type { Tool } from "./tool.ts";

export const serverInfo = { name: "headless-cms", version: "0.1.0" };

const instructions =
  "Tools to manage this CMS account's site (accounts_list names it): content (entries_*), structure " +
  "(collections_*, blueprints_*, templates_*), files (assets_*), site settings (globals_*, navigations_*, " +
  "navigation_items_*, forms_*) and review (templates_validate, theme_validate, site_preview, " +
  "preview_render_path). Records are named by handle; new handles must be snake_case. " +
  "A failed call answers {error, status, details: [{path, message}]}: mend the named arguments and retry.";

export function createMcpServer(tools: readonly Tool[], session: ToolSession): Server {
  const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () =>
    masked(session.log, "tools/list", async () => {
      const viewer = await session.context().viewer();
      const visible = viewer?.scope === "write" ? tools : tools.filter((tool) => tool.access === "read");
      return {
        tools: visible.map(({ name, description, inputSchema, annotations }) => ({
          name,
          description,
          inputSchema,
          annotations,
        })),
      };
    }),
  );

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, session);
  });
  return server;
}

/**
 * An error nobody expected (the token's lookup failing) is logged with its stack and answered as an internal
 * error (-32603) without its message: the SDK would send the error's own message. Tool calls answer theirs as
 * tool errors (run-tool.ts).
 */
async function masked<T>(log: Log, method: string, answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof McpError) throw error;
    const apiError = publicError(error, { method }, log);
    // The SDK answers an error's code and message; an McpError's message would carry "MCP error -32603: ".
    throw Object.assign(new Error(apiError.message), { code: ErrorCode.InternalError });
  }
}
