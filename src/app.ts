// The HTTP application: one fetch handler that hands each request to its transport.
import { createServerAdapter } from "@whatwg-node/server";
import type { Config } from "./config.ts";
import { type Database, ping } from "./db/client.ts";
import { createGraphQLHandler } from "./graphql.ts";
import { createSiteHandler } from "./render/index.ts";
import { json } from "./rest/errors.ts";
import { createRestHandler } from "./rest/index.ts";
import type { ContextDeps } from "./schema/context.ts";
import { createContext, publicSchema, schema } from "./schema/index.ts";
import type { Storage } from "./storage/local.ts";

export function createApp(
  database: Database,
  storage: Storage,
  config: Pick<Config, "jsonBodyLimit" | "uploadLimit">,
) {
  const deps: ContextDeps = { ...database, storage, uploadLimit: config.uploadLimit };
  const rest = createRestHandler({ schema, jsonBodyLimit: config.jsonBodyLimit });
  const graphql = createGraphQLHandler(publicSchema);
  const site = createSiteHandler(schema);

  return createServerAdapter(async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz") return json({ status: "ok" });
    if (pathname === "/readyz") {
      const ready = await ping(database.db);
      return json({ status: ready ? "ready" : "unavailable" }, ready ? 200 : 503);
    }
    if (pathname === "/graphql") return graphql(request, createContext(deps, request));
    if (pathname === "/v1" || pathname.startsWith("/v1/")) return rest(request, createContext(deps, request));
    return site(request, createContext(deps, request));
  });
}
