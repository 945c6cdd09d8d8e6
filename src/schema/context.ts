// The per-request context shared by every transport: the database, who is calling (resolved lazily from
// the bearer token, once per request), and per-request loaders that batch nested reads.
import type { Db, DbProvider } from "../db/client.ts";
import { findViewer, type Viewer } from "./accounts/tokens.ts";
import { createLoaders, type Loaders } from "./loaders.ts";

export interface Context {
  db: Db;
  provider: DbProvider;
  viewer: () => Promise<Viewer | null>;
  loaders: Loaders;
}

export interface ContextDeps {
  db: Db;
  provider: DbProvider;
}

export function createContext(deps: ContextDeps, request: { headers: Headers }): Context {
  let viewer: Promise<Viewer | null> | undefined;
  const token = bearerToken(request.headers.get("authorization"));
  const context: Context = {
    ...deps,
    viewer: () => {
      viewer ??= token ? findViewer(deps.db, token) : Promise.resolve(null);
      return viewer;
    },
    loaders: undefined as unknown as Loaders,
  };
  context.loaders = createLoaders(context);
  return context;
}

function bearerToken(header: string | null): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
