// The per-request context shared by every transport: the database, the file storage of uploads, who is
// calling (resolved lazily from the bearer token, once per request), and per-request loaders that batch
// nested reads. With a read cache, the token's and the Host's lookups are kept like query results.
import { DEFAULT_HISTORY, type HistorySettings } from "../config.ts";
import type { Db, DbProvider } from "../db/client.ts";
import { boundedClient, type Deadline } from "../db/deadline.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { noOutbox, type Outbox } from "../mail/outbox.ts";
import { createMemoryEvents, type RecentEvents } from "../rate-limit/recent-events.ts";
import type { Storage } from "../storage/storage.ts";
import { findViewer, type Viewer } from "./accounts/tokens.ts";
import { createLoaders, type Loaders } from "./loaders.ts";
import type { ReadCache } from "./read-cache.ts";
import { findSite, hostName, type SiteAccount } from "./site/host.ts";
import { noDispatch, type WebhookDispatch } from "./webhooks/outbox.ts";

export interface Context {
  db: Db;
  provider: DbProvider;
  storage: Storage;
  /** Largest uploaded file, in bytes; for JSON uploads, the base64 text counts. */
  uploadLimit: number;
  /**
   * The request's (REQUEST_TIMEOUT_MS; none in-process): `db` refuses operations begun after it, and work
   * that runs long without the database (an import's archive) checks it too.
   */
  deadline: Deadline | undefined;
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
  /** Wakes the webhook dispatcher after a write added deliveries. */
  webhookDispatch: WebhookDispatch;
  /** Recent submissions of spam-checked forms by form and address (in Redis with REDIS_URL). */
  submissions: RecentEvents;
  /** Kept results of reads (cached-execute.ts); none in the CLI and schema tests. */
  reads: ReadCache | undefined;
  /**
   * How handles created or renamed in this request must be spelled: "any" (REST, GraphQL), or
   * "snake_case" for the tool interface (content-api.md: "The separate tool interface requires snake_case").
   */
  handleStyle: HandleStyle;
  /** Whether server-side fetches (assets from a URL) may reach private and loopback addresses. */
  outboundAllowPrivate: boolean;
  /** How long a server-side fetch may take: less than the request's own timeout. */
  outboundTimeoutMs: number;
  /** How long any request may run (REQUEST_TIMEOUT_MS): work that must outlast every one waits this long. */
  requestTimeoutMs: number;
  /**
   * The URL the request was made to, as the client sent it (scheme, Host and port; null in-process): a
   * preview link keeps its scheme and port on the account's domain.
   */
  requestUrl: string | null;
  /** Retention of revisions and the trash, the life of preview links. */
  history: HistorySettings;
  /** Everything besides the data a query's answer depends on: the bearer token and the Host. */
  caller: string;
  /** The data generation, read once per request and afresh after a write (dataChanged). */
  generation: () => Promise<string>;
  /**
   * After a write: the request's accounts changed (for every kept read, at once) and it reads afresh.
   * `lookups`: the write may have changed what is kept per table (tokens, collections, blueprints,
   * webhooks); otherwise only reads kept whole end, and the lookups of a stream of entries stay.
   */
  dataChanged: (lookups?: boolean) => void;
  /** Resolves once every other server process has heard the request's writes (changes.ts `settle`). */
  writesHeard: () => Promise<void>;
  /**
   * The value kept under `key` while nothing it was read from changed, else `compute`'s, kept when `size`
   * gives its size in bytes (undefined keeps nothing: errors, not-found answers, output that varies; by
   * default everything but null is kept: made-up tokens and Hosts, which anyone can send, must not push
   * real answers out). It was read from `accounts` (by default the accounts this request has resolved:
   * its token's and its Host's), from `tables` of theirs only when given. Without a read cache, `compute`
   * every time.
   */
  keep<T>(key: string, compute: () => Promise<T>, options?: KeepOptions<T>): Promise<T>;
  /**
   * Whether the request's whole answer (a keep with `answer`) came from the read cache: "hit" or "miss";
   * undefined without a read cache or an answer kept. The transport says it in `X-Cache`.
   */
  answerCache: "hit" | "miss" | undefined;
  /**
   * Set by a resolver whose answer depends on more than the data (a running import job's progress, held
   * in the memory of the process running it): the request's answers are then not kept.
   */
  answerVaries: boolean;
}

export interface ContextDeps {
  db: Db;
  provider: DbProvider;
  storage: Storage;
  uploadLimit: number;
  /** Without one (tests of the schema, the CLI), nothing is sent. */
  outbox?: Outbox;
  /** Without one (the CLI), deliveries wait for a server's dispatcher. */
  webhookDispatch?: WebhookDispatch;
  /** Without them, this process's own memory. */
  submissions?: RecentEvents;
  reads?: ReadCache;
  /** Without it (the CLI), writes are answered without waiting for server processes to hear them. */
  writesHeard?: () => Promise<void>;
  /** OUTBOUND_ALLOW_PRIVATE; false without it. */
  outboundAllowPrivate?: boolean;
  /** 20 s without it. */
  outboundTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** The defaults without it (the CLI). */
  history?: HistorySettings;
}

export type HandleStyle = "any" | "snake_case";

export interface KeepOptions<T> {
  size?: (value: T) => number | undefined;
  tables?: readonly Table[];
  accounts?: (value: T) => readonly string[];
  /** The value is the request's whole answer (REST, GraphQL, a site page): see `answerCache`. */
  answer?: boolean;
}

/** A table of the database (a Prisma model: no model maps to another name). */
export type Table = Prisma.ModelName;

const ownSubmissions = createMemoryEvents();
const viewerLookup: KeepOptions<Viewer | null> = {
  tables: ["ApiToken"],
  accounts: (viewer) => (viewer ? [viewer.accountId] : []),
};
const siteLookup: KeepOptions<SiteAccount | null> = {
  tables: ["Account"],
  accounts: (site) => (site ? [site.id] : []),
};
const noWait = () => Promise.resolve();
const keptByDefault = <T>(value: T) => (value === null ? undefined : 256);

export function createContext(
  deps: ContextDeps,
  request: { headers: Headers; url?: string },
  clientIp: string | null = null,
  handleStyle: HandleStyle = "any",
  /** The request's (db/deadline.ts): its operations begun after it are refused. */
  deadline?: Deadline,
): Context {
  let viewer: Promise<Viewer | null> | undefined;
  let site: Promise<SiteAccount | null> | undefined;
  let stamp: Promise<number> | undefined;
  let generation: Promise<string> | undefined;
  const token = bearerToken(request.headers.get("authorization"));
  const host = hostName(request.headers.get("host"));
  const { reads } = deps;
  // The accounts this request has named (its token's, its Host's): what its reads are read from.
  const accounts = new Set<string>();
  const named = (account: string | undefined) => account && accounts.add(account);
  // Named one by one, not spread from `deps`: made for every request, and a spread that adds keys is
  // slow on Node 20 (docs/performance.md, "The request's context").
  const db = deadline ? boundedClient(deps.db, deadline) : deps.db;
  // The request's stamp (and generation, below). The first after other processes' commits are heard
  // (changes.ts: on PostgreSQL their writers waited for it, on SQLite a data_version check), so that one
  // acknowledged before the request began is read; again after each of the request's own writes without
  // checking again: its writes are marked already (SQLite's triggers; on PostgreSQL `dataChanged`, as
  // fresh-after-writes.ts tells it), and a commit elsewhere since the request began is one it may or may
  // not see.
  let caughtUp = false;
  const stamped = () => {
    if (!reads) return Promise.resolve(0);
    stamp ??= caughtUp
      ? Promise.resolve(reads.generation.changes.heardStamp())
      : reads.generation.stamp().then((at) => {
          caughtUp = true;
          return at;
        });
    return stamp;
  };
  const context: Context = {
    db,
    provider: deps.provider,
    storage: deps.storage,
    uploadLimit: deps.uploadLimit,
    deadline,
    viewer: () => {
      viewer ??= token
        ? context
            .keep(`viewer\u0000${token}`, () => findViewer(db, token), viewerLookup)
            .then((found) => {
              named(found?.accountId);
              return found;
            })
        : Promise.resolve(null);
      return viewer;
    },
    site: () => {
      site ??= host
        ? context
            .keep(`site\u0000${host}`, () => findSite(db, host), siteLookup)
            .then((found) => {
              named(found?.id);
              return found;
            })
        : Promise.resolve(null);
      return site;
    },
    loaders: undefined as unknown as Loaders,
    clientIp,
    stagedUploads: new Set(),
    outbox: deps.outbox ?? noOutbox,
    webhookDispatch: deps.webhookDispatch ?? noDispatch,
    submissions: deps.submissions ?? ownSubmissions,
    reads,
    handleStyle,
    outboundAllowPrivate: deps.outboundAllowPrivate ?? false,
    outboundTimeoutMs: deps.outboundTimeoutMs ?? 20_000,
    requestTimeoutMs: deps.requestTimeoutMs ?? 30_000,
    requestUrl: request.url ?? null,
    history: deps.history ?? DEFAULT_HISTORY,
    caller: `${token ?? ""}\u0000${host}`,
    generation: () => {
      generation ??= reads ? stamped().then((at) => reads.generation.at(at)) : Promise.resolve("");
      return generation;
    },
    dataChanged: (lookups = true) => {
      // Where this process hears its own writes only once committed (PostgreSQL's NOTIFY), the request's
      // accounts changed now: its client's next read, here, must see the write. Content is told as the
      // Entry table's change: it ends every read kept whole, no lookup kept per table.
      const changes = reads?.generation.changes;
      if (changes && !changes.hearsOwnWrites) {
        for (const account of accounts) changes.changed(account, lookups ? undefined : "Entry");
      }
      stamp = undefined;
      generation = undefined;
      // A later operation of the same document may read what this one wrote (a renamed blueprint).
      if (lookups) context.loaders.forgetLookups();
    },
    writesHeard: deps.writesHeard ?? noWait,
    answerCache: undefined,
    answerVaries: false,
    keep: async (key, compute, { size = keptByDefault, tables, accounts: accountsOf, answer } = {}) => {
      if (!reads?.keeps(tables)) return compute();
      // Read before computing: what is kept is at least as new as the moment it is kept under. A read of
      // content reads its generation first, whose schedule epoch tells of accounts come due; a lookup of
      // some tables needs the stamp alone (not the epoch, read anew after each entry write).
      if (!tables) await context.generation();
      const stamp = await stamped();
      const found = reads.get(key, tables);
      if (answer) context.answerCache = found === undefined ? "miss" : "hit";
      if (found !== undefined) return found as Awaited<ReturnType<typeof compute>>;
      const value = await compute();
      const bytes = size(value);
      if (bytes === undefined) return value;
      const readFrom = accountsOf ? accountsOf(value) : [...accounts];
      reads.set(key, { stamp, accounts: readFrom, tables }, value, bytes);
      return value;
    },
  };
  context.loaders = createLoaders(context);
  return context;
}

function bearerToken(header: string | null): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
