// The per-request context shared by every transport: the database, the file storage of uploads, who is
// calling (resolved lazily from the bearer token, once per request), and per-request loaders that batch
// nested reads.
import type { Db, DbProvider } from "../db/client.ts";
import { noOutbox, type Outbox } from "../mail/outbox.ts";
import type { Storage } from "../storage/local.ts";
import { findViewer, type Viewer } from "./accounts/tokens.ts";
import { createLoaders, type Loaders } from "./loaders.ts";
import { findSite, type SiteAccount } from "./site/host.ts";

export interface Context {
  db: Db;
  provider: DbProvider;
  storage: Storage;
  /** Largest uploaded file, in bytes; for JSON uploads, the base64 text counts. */
  uploadLimit: number;
  viewer: () => Promise<Viewer | null>;
  /** The account whose public site the request's Host names (resolved once, lazily). */
  site: () => Promise<SiteAccount | null>;
  loaders: Loaders;
  /** The client's address as the transport saw it (null in-process): the spam check's submission rate. */
  clientIp: string | null;
  /** Files this request's transport staged (multipart uploads): the only ones an upload may commit. */
  stagedUploads: Set<string>;
  /** Where mail goes to be delivered later (form notifications); never blocks the request. */
  outbox: Outbox;
}

export interface ContextDeps {
  db: Db;
  provider: DbProvider;
  storage: Storage;
  uploadLimit: number;
  /** Without one (tests of the schema, the CLI), nothing is sent. */
  outbox?: Outbox;
}

export function createContext(
  deps: ContextDeps,
  request: { headers: Headers },
  clientIp: string | null = null,
): Context {
  let viewer: Promise<Viewer | null> | undefined;
  let site: Promise<SiteAccount | null> | undefined;
  const token = bearerToken(request.headers.get("authorization"));
  const context: Context = {
    ...deps,
    viewer: () => {
      viewer ??= token ? findViewer(deps.db, token) : Promise.resolve(null);
      return viewer;
    },
    site: () => {
      site ??= findSite(deps.db, request.headers.get("host"));
      return site;
    },
    loaders: undefined as unknown as Loaders,
    clientIp,
    stagedUploads: new Set(),
    outbox: deps.outbox ?? noOutbox,
  };
  context.loaders = createLoaders(context);
  return context;
}

function bearerToken(header: string | null): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
