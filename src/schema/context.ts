// The per-request context shared by every transport: the database, the file storage of uploads, who is
// calling (the bearer token's and the Host's accounts with their generations, one read per request,
// generations.ts), kept reads keyed by those generations, and per-request loaders that batch nested reads.
import { DEFAULT_HISTORY, type HistorySettings } from "../config.ts";
import type { Db, DbProvider } from "../db/client.ts";
import { boundedClient, type Deadline } from "../db/deadline.ts";
import { noOutbox, type Outbox } from "../mail/outbox.ts";
import { createMemoryEvents, type RecentEvents } from "../rate-limit/recent-events.ts";
import type { Storage } from "../storage/storage.ts";
import type { Viewer } from "./accounts/tokens.ts";
import { type AccountGeneration, type Identity, type IdentityReader, readIdentity } from "./generations.ts";
import { createLoaders, type Loaders } from "./loaders.ts";
import type { ReadCache } from "./read-cache.ts";
import { hostName, type SiteAccount } from "./site/host.ts";
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
  /**
   * The generations of the accounts the request names (its token's, its Host's), read with the token and
   * Host lookups in one statement (generations.ts) before anything else: what its answers are kept by,
   * and what its validators (ETag) are derived from.
   */
  generation: () => Promise<string>;
  /** The moment the request's public reads are made as of (site/scope.ts), read with its generations. */
  asOf: () => Promise<Date>;
  /**
   * After a write (every root mutation: write-hook.ts): the request's generations, token and Host are
   * read again when next needed, so its later reads see what it wrote.
   */
  refresh: () => void;
  /**
   * The value kept under `key` at the request's generation, else `compute`'s, kept when `size` gives its
   * size in bytes (undefined keeps nothing: errors, not-found answers, output that varies; by default
   * everything but null is kept). An answer depends on every account the request names; a `lookup` on one
   * account (`account`), on its structure alone ("structure": tokens, collections, blueprints, templates,
   * forms, globals, navigations, webhooks) or all of it ("content"). Without a read cache, `compute`
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
  /** SQLite: identities kept while the database provably has the same (generations.ts `keptIdentities`). */
  identities?: IdentityReader;
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
  /** A lookup of one account: of its structure only, or of its content too. */
  lookup?: { account: string; of: "structure" | "content" };
  /** The value is the request's whole answer (REST, GraphQL, a site page): see `answerCache`. */
  answer?: boolean;
  /** False: a value computed is not kept (read inside a transaction that may roll back). */
  store?: boolean;
}

const ownSubmissions = createMemoryEvents();
const keptByDefault = <T>(value: T) => (value === null ? undefined : 256);

export function createContext(
  deps: ContextDeps,
  request: { headers: Headers; url?: string },
  clientIp: string | null = null,
  handleStyle: HandleStyle = "any",
  /** The request's (db/deadline.ts): its operations begun after it are refused. */
  deadline?: Deadline,
): Context {
  const token = bearerToken(request.headers.get("authorization"));
  const host = hostName(request.headers.get("host"));
  const { reads } = deps;
  // Named one by one, not spread from `deps`: made for every request, and a spread that adds keys is
  // slow on Node 20 (docs/performance.md).
  const db = deadline ? boundedClient(deps.db, deadline) : deps.db;
  let identity: Promise<Identity> | undefined;
  const identify = () => {
    identity ??= deps.identities ? deps.identities(token, host) : readIdentity(db, token, host);
    return identity;
  };
  /**
   * What a kept value is keyed by besides its key: the generations of every account the request names, or
   * of the lookup's one account (undefined: not the request's).
   */
  const generationOf = async (lookup?: KeepOptions<unknown>["lookup"]) => {
    const { generations } = await identify();
    if (!lookup) return generationKey(generations);
    const found = generations.get(lookup.account);
    if (!found) return undefined;
    return lookup.of === "structure"
      ? `${lookup.account}.s${found.structure}`
      : `${lookup.account}.${found.content}.${found.structure}`;
  };
  const context: Context = {
    db,
    provider: deps.provider,
    storage: deps.storage,
    uploadLimit: deps.uploadLimit,
    deadline,
    viewer: async () => (await identify()).viewer,
    site: async () => (host ? (await identify()).site : null),
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
    generation: async () => (await generationOf()) ?? "",
    asOf: async () => (await identify()).asOf,
    refresh: () => {
      identity = undefined;
      // A later operation of the same document may read what this one wrote (a renamed blueprint).
      context.loaders.forgetLookups();
    },
    answerCache: undefined,
    answerVaries: false,
    keep: async (key, compute, { size = keptByDefault, lookup, answer, store = true } = {}) => {
      if (!reads?.keeps(lookup !== undefined)) return compute();
      const read = identify();
      const generation = await generationOf(lookup);
      if (generation === undefined) return compute();
      const keyed = `${key}\u0000${generation}`;
      const found = reads.get(keyed, lookup !== undefined);
      if (answer) context.answerCache = found === undefined ? "miss" : "hit";
      if (found !== undefined) return found as Awaited<ReturnType<typeof compute>>;
      const value = await compute();
      // A write of the request's own since (refresh) may be in what was read: not kept under the old one.
      if (identity !== read || !store) return value;
      const bytes = size(value);
      if (bytes !== undefined) reads.set(keyed, value, bytes, lookup !== undefined);
      return value;
    },
  };
  context.loaders = createLoaders(context);
  return context;
}

/** The generations of the accounts a request names, in one text: `<account>.<content>.<structure>;…`. */
function generationKey(generations: ReadonlyMap<string, AccountGeneration>): string {
  let key = "";
  for (const [account, { content, structure }] of generations) key += `${account}.${content}.${structure};`;
  return key;
}

function bearerToken(header: string | null): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
