// What a tool is: a name an assistant calls, what it may do (read or write), hints for the client, the
// JSON Schema of its arguments (derived from the schema's types) and how a call runs schema operations.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "../schema/index.ts";
import type { JsonSchema } from "./json-schema.ts";
import type { RunOperation } from "./operation.ts";

export type Access = "read" | "write";

/** What a call has to work with: the caller's context, its account and the schema's operations. */
export interface Call {
  ctx: Context;
  accountId: string;
  run: RunOperation;
}

/** A tool's answer: the JSON object REST would answer, and for a page preview the HTML as its text. */
export interface ToolResult {
  structured: Record<string, unknown>;
  text?: string;
}

export interface Tool {
  name: string;
  description: string;
  access: Access;
  annotations: ToolAnnotations;
  inputSchema: JsonSchema & { type: "object"; properties: Record<string, JsonSchema> };
  call(args: Record<string, unknown>, call: Call): Promise<ToolResult>;
}

export const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/**
 * Saving by handle twice with the same arguments leaves the same record; but a save replaces what it is
 * given (values, a field list, a menu's items), which MCP calls destructive.
 */
export const saves: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
/** Only adds (a new upload each time). */
export const creates: ToolAnnotations = { ...saves, destructiveHint: false, idempotentHint: false };
export const deletes: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
