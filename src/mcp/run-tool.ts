// One tool call: its arguments checked, the caller's budget counted, the tool run with a fresh context,
// and the outcome answered as MCP wants it: the JSON object as structured content and as text, or a tool
// error carrying REST's error body ({error, status, details}) so that an assistant can mend its call.
// Every call is logged like a request: tool, status, duration; never arguments (they may hold secrets).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { publicError } from "../http/public-error.ts";
import type { Log } from "../log.ts";
import type { RateLimitDecision } from "../rate-limit/index.ts";
import { ApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { argumentProblems } from "./arguments.ts";
import type { RunOperation } from "./operation.ts";
import type { Tool } from "./tool.ts";

export interface ToolSession {
  /** A context for one call: the caller as the transport knows it, handles spelled snake_case. */
  context(): Context;
  run: RunOperation;
  log: Log;
  /** Counts a call against the caller's budget, where the transport has not counted it already. */
  charge?(ctx: Context): Promise<RateLimitDecision | undefined>;
}

export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  session: ToolSession,
): Promise<CallToolResult> {
  const started = process.hrtime.bigint();
  let status = 200;
  try {
    const problems = argumentProblems(tool, args);
    if (problems.length > 0) throw new ApiError(422, "Validation failed", problems);
    const ctx = session.context();
    const viewer = await ctx.viewer();
    if (!viewer) throw new ApiError(401, "Missing or invalid bearer token");
    const budget = await session.charge?.(ctx);
    if (budget && !budget.allowed)
      throw new ApiError(429, `Rate limit exceeded: retry in ${budget.retryAfterSeconds} s`);
    const { structured, text } = await tool.call(args, {
      ctx,
      accountId: viewer.accountId,
      run: session.run,
    });
    return {
      content: [{ type: "text", text: text ?? JSON.stringify(structured) }],
      structuredContent: structured,
    };
  } catch (error) {
    const apiError = publicError(error, { tool: tool.name }, session.log);
    status = apiError.status;
    const body = { error: apiError.message, status, details: apiError.details };
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(body) }],
      structuredContent: body,
    };
  } finally {
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
    session.log({
      level: status >= 500 ? "error" : "info",
      msg: "tool call",
      tool: tool.name,
      status,
      duration_ms: durationMs,
    });
  }
}
