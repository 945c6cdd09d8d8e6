// `cms mcp`: the tool interface over stdin/stdout for desktop assistants, against the database the
// server's settings name. The caller is a token (as over HTTP, with its scope and rate budget) or, with
// --account, the operator acting for an account as its write token would. stdout carries only the
// protocol: the CLI logs on stderr (src/log.ts).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config.ts";
import { contextDeps } from "../context-deps.ts";
import type { Database } from "../db/client.ts";
import { log } from "../log.ts";
import { createRateLimiter } from "../rate-limit/index.ts";
import { operatorViewer } from "../schema/accounts/operator-viewer.ts";
import { findViewer, type Viewer } from "../schema/accounts/tokens.ts";
import { ApiError } from "../schema/errors.ts";
import { createContext, schema } from "../schema/index.ts";
import { openStorage } from "../storage/open.ts";
import { createOperations } from "./operation.ts";
import { checkingParams } from "./params-check.ts";
import { createMcpServer } from "./server.ts";
import { buildTools } from "./tools.ts";

export type StdioCaller = { token: string } | { account: string };

/** Serves until stdin closes; `ready` once the caller is known good (a bad one is the only line said). */
export async function serveStdio(
  database: Database,
  config: Config,
  caller: StdioCaller,
  ready: () => void,
): Promise<void> {
  const viewer = await callerViewer(database, caller);
  ready();
  const storage = await openStorage(config, database.db);
  const limiter = createRateLimiter(
    {
      perMinute: config.rateLimitPerMinute,
      anonymousPerMinute: 0,
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
    },
    log,
  );
  const deps = contextDeps(database, storage, config);
  // A token is looked up on every call, as over HTTP: revoking it ends the session's access at once.
  const headers = new Headers("token" in caller ? { authorization: `Bearer ${caller.token}` } : {});
  const context = () => {
    const ctx = createContext(deps, { headers }, null, "snake_case");
    if (!("token" in caller)) ctx.viewer = async () => viewer;
    return ctx;
  };
  const server = createMcpServer(buildTools(schema), {
    context,
    run: createOperations(schema),
    log,
    // Over HTTP each call is a request, counted as one; here nothing else counts it.
    charge: () => limiter.check({ kind: "token", tokenId: viewer.tokenId }),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(checkingParams(new StdioServerTransport()));
  await closed;
  await limiter.close();
}

async function callerViewer(database: Database, caller: StdioCaller): Promise<Viewer> {
  if ("token" in caller) {
    const viewer = await findViewer(database.db, caller.token);
    if (!viewer) throw new ApiError(401, "--token is not a live API token of this database");
    return viewer;
  }
  return operatorViewer(database.db, caller.account);
}
