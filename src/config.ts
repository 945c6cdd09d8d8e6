// Runtime settings, read once from the environment and the settings file `.env` (decisions.md, "Running
// the service"; the table in docs/configuration.md): one zod schema over the variables, whose error names
// each wrong one.
import { resolve } from "node:path";
import { z } from "zod";
import { checked, flag, oneOf, readVariables, secretUrl, text, wholeNumber } from "./env-fields.ts";
import { type MailSettings, mailSettings, mailVariables } from "./mail/settings.ts";
import { loadSettingsFile, type SettingsFile } from "./settings-file.ts";
import { type BucketLocation, bucketLocation } from "./storage/location.ts";

export interface Config {
  /** The `.env` file read, and which variables came from it; undefined when there was none. */
  settingsFile?: SettingsFile;
  port: number;
  host: string;
  dataDir: string;
  /**
   * postgresql://… (or postgres://…) selects PostgreSQL, file:PATH an SQLite file at PATH; unset, the
   * embedded database under dataDir.
   */
  databaseUrl: string | undefined;
  /**
   * When an SQLite commit waits for the disk (SQLITE_SYNCHRONOUS): "full", every commit (a power cut loses
   * nothing acknowledged); "normal", at WAL checkpoints only (faster; a power cut may lose the last commits).
   */
  sqliteSynchronous: SqliteSynchronous;
  /** Where uploaded files live (ASSET_STORAGE=s3://bucket/prefix); unset, under dataDir/assets. */
  assetBucket: BucketLocation | undefined;
  /** Largest JSON body accepted, in bytes. */
  jsonBodyLimit: number;
  /** Largest uploaded file, in bytes (CMS_UPLOAD_LIMIT); for JSON uploads, the base64 text counts. */
  uploadLimit: number;
  /** API requests per minute per valid token (RATE_LIMIT_PER_MINUTE); 0 = no limit, the default. */
  rateLimitPerMinute: number;
  /** Counted requests per minute per client IP without a valid token, form posts included; 0 = no limit. */
  anonymousRateLimitPerMinute: number;
  /** redis://… shares rate-limit counters between processes; otherwise they are kept in memory. */
  redisUrl: string | undefined;
  redisPrefix: string;
  /** Answer 503 to a request not answered within this time (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Close a connection whose request headers have not all arrived within this time (slowloris). */
  headersTimeoutMs: number;
  /** Take the client IP from the last X-Forwarded-For address (TRUST_PROXY=true, behind a reverse proxy). */
  trustProxy: boolean;
  /** Memory for kept read results (READ_CACHE_MB, 0 = none): see src/schema/read-cache.ts. */
  readCacheBytes: number;
  /** Memory for kept lookups of tokens, collections, blueprints… (LOOKUP_CACHE_MB, 0 = none). */
  lookupCacheBytes: number;
  /**
   * Let server-side fetches (assets_upload_from_url) reach loopback, private and link-local addresses
   * (OUTBOUND_ALLOW_PRIVATE=true); refused by default.
   */
  outboundAllowPrivate: boolean;
  /** How long history and deleted records are kept: see HistorySettings. */
  history: HistorySettings;
  /** How long a shared cache (a CDN) may serve a site page: see SiteCacheSettings. */
  siteCache: SiteCacheSettings;
  webhooks: WebhookSettings;
  /** Form notifications by email (SMTP_URL, SMTP_FROM, SMTP_RETRY_DELAY_MS). */
  mail: MailSettings;
}

export type SqliteSynchronous = "full" | "normal";

/** How webhook deliveries are sent and retried (docs/webhooks.md). */
export interface WebhookSettings {
  /** The first retry's delay, doubling after each failure (WEBHOOK_RETRY_BASE_MS, 10 s). */
  retryBaseMs: number;
  /** Attempts before a delivery is marked failed (WEBHOOK_MAX_ATTEMPTS, 8). */
  maxAttempts: number;
  /** One attempt's limit, connection and answer (WEBHOOK_TIMEOUT_MS, 10 s). */
  timeoutMs: number;
  /** How often due deliveries are looked for besides right after a write (WEBHOOK_POLL_MS, 1 s). */
  pollMs: number;
  /** Delivered and failed deliveries are kept this long in the log (WEBHOOK_LOG_KEEP_DAYS, 30). */
  logKeepDays: number;
}

/** Retention of revisions and the trash, and the life of preview links. */
export interface HistorySettings {
  /** Revisions kept per record, newest first (REVISIONS_KEEP, 100); with revisionsKeepDays 0 too, none are recorded. */
  revisionsKeep: number;
  /** Every revision younger than this is kept besides (REVISIONS_KEEP_DAYS, 30). */
  revisionsKeepDays: number;
  /** Deleted records stay in the trash this long (TRASH_KEEP_DAYS, 30). */
  trashKeepDays: number;
  /** A preview link works this long (PREVIEW_LINK_TTL_SECONDS, 3600). */
  previewLinkTtlSeconds: number;
}

/** Site pages' `Cache-Control: public, s-maxage=…, stale-while-revalidate=…` (docs/api-notes.md). */
export interface SiteCacheSettings {
  /** Seconds a shared cache serves a page without asking again (SITE_S_MAXAGE, 60). */
  sMaxAge: number;
  /** Seconds after that it may still serve it while it asks again (SITE_STALE_WHILE_REVALIDATE, 300). */
  staleWhileRevalidate: number;
}

export const DEFAULT_SITE_CACHE: SiteCacheSettings = { sMaxAge: 60, staleWhileRevalidate: 300 };

export const DEFAULT_HISTORY: HistorySettings = {
  revisionsKeep: 100,
  revisionsKeepDays: 30,
  trashKeepDays: 30,
  previewLinkTtlSeconds: 3600,
};

export const DEFAULT_UPLOAD_LIMIT = 25 * 1024 * 1024;
/** A token is the owner's own: not limited unless they ask (a bulk import runs at full speed). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 0;
/** Without a valid token: enough for a browser on the site, low enough to blunt token guessing and spam. */
export const DEFAULT_ANONYMOUS_RATE_LIMIT_PER_MINUTE = 600;

/** postgresql://, postgres:// or file:PATH; anything else is refused (a mysql:// URL once ran on SQLite). */
const isDatabaseUrl = (value: string) =>
  /^file:./.test(value) || (/^postgres(ql)?:\/\//.test(value) && URL.canParse(value));

/** Every variable the server and the CLI read, with its default. */
export const environment = z.object({
  PORT: wholeNumber(3000, 0, 65535),
  HOST: text("0.0.0.0"),
  CMS_DATA_DIR: text("./data"),
  DATABASE_URL: secretUrl(
    isDatabaseUrl,
    "a postgresql:// URL",
    "leave it unset for the embedded database under CMS_DATA_DIR",
  ),
  SQLITE_SYNCHRONOUS: oneOf(["full", "normal"], "full"),
  ASSET_STORAGE: checked(
    (value) => bucketLocation(value) !== undefined,
    "an s3://bucket/prefix URL",
    "leave it unset for files under CMS_DATA_DIR/assets",
  ),
  // File sizes are stored as 32-bit integers.
  CMS_UPLOAD_LIMIT: wholeNumber(DEFAULT_UPLOAD_LIMIT, 1, 2 ** 31 - 1),
  RATE_LIMIT_PER_MINUTE: wholeNumber(DEFAULT_RATE_LIMIT_PER_MINUTE, 0),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: wholeNumber(DEFAULT_ANONYMOUS_RATE_LIMIT_PER_MINUTE, 0),
  // Not checked here: ioredis takes more than one form (redis://, rediss://, a socket path).
  REDIS_URL: text(undefined),
  RATE_LIMIT_REDIS_PREFIX: text("cms:rate:"),
  REQUEST_TIMEOUT_MS: wholeNumber(30_000, 1),
  HEADERS_TIMEOUT_MS: wholeNumber(10_000, 1),
  TRUST_PROXY: flag(),
  READ_CACHE_MB: wholeNumber(32, 0),
  LOOKUP_CACHE_MB: wholeNumber(8, 0),
  OUTBOUND_ALLOW_PRIVATE: flag(),
  REVISIONS_KEEP: wholeNumber(DEFAULT_HISTORY.revisionsKeep, 0),
  REVISIONS_KEEP_DAYS: wholeNumber(DEFAULT_HISTORY.revisionsKeepDays, 0),
  TRASH_KEEP_DAYS: wholeNumber(DEFAULT_HISTORY.trashKeepDays, 0),
  PREVIEW_LINK_TTL_SECONDS: wholeNumber(DEFAULT_HISTORY.previewLinkTtlSeconds, 1),
  SITE_S_MAXAGE: wholeNumber(DEFAULT_SITE_CACHE.sMaxAge, 0),
  SITE_STALE_WHILE_REVALIDATE: wholeNumber(DEFAULT_SITE_CACHE.staleWhileRevalidate, 0),
  WEBHOOK_RETRY_BASE_MS: wholeNumber(10_000, 1),
  WEBHOOK_MAX_ATTEMPTS: wholeNumber(8, 1),
  WEBHOOK_TIMEOUT_MS: wholeNumber(10_000, 1),
  WEBHOOK_POLL_MS: wholeNumber(1_000, 10),
  WEBHOOK_LOG_KEEP_DAYS: wholeNumber(30, 1),
  // A switch for tests and benchmarks, read by src/db/query-count.ts: only "1" turns it on.
  CMS_COUNT_QUERIES: z
    .string()
    .optional()
    .transform((value) => value === "1"),
  ...mailVariables.shape,
});

/**
 * The settings, or an error naming every variable whose value is wrong (in one line). Without `env`, the
 * process's environment, with the working directory's `.env` read into it first (src/settings-file.ts).
 */
export function loadConfig(env?: NodeJS.ProcessEnv): Config {
  const settingsFile = env ? undefined : loadSettingsFile();
  const variables = fromSettingsFile(settingsFile, () => readVariables(environment, env ?? process.env));
  return {
    ...(settingsFile && { settingsFile }),
    port: variables.PORT,
    host: variables.HOST,
    dataDir: resolve(variables.CMS_DATA_DIR),
    databaseUrl: variables.DATABASE_URL,
    sqliteSynchronous: variables.SQLITE_SYNCHRONOUS,
    assetBucket: variables.ASSET_STORAGE === undefined ? undefined : bucketLocation(variables.ASSET_STORAGE),
    jsonBodyLimit: 2 * 1024 * 1024,
    uploadLimit: variables.CMS_UPLOAD_LIMIT,
    rateLimitPerMinute: variables.RATE_LIMIT_PER_MINUTE,
    anonymousRateLimitPerMinute: variables.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    redisUrl: variables.REDIS_URL,
    redisPrefix: variables.RATE_LIMIT_REDIS_PREFIX,
    requestTimeoutMs: variables.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: variables.HEADERS_TIMEOUT_MS,
    trustProxy: variables.TRUST_PROXY,
    readCacheBytes: variables.READ_CACHE_MB * 1024 * 1024,
    lookupCacheBytes: variables.LOOKUP_CACHE_MB * 1024 * 1024,
    outboundAllowPrivate: variables.OUTBOUND_ALLOW_PRIVATE,
    history: {
      revisionsKeep: variables.REVISIONS_KEEP,
      revisionsKeepDays: variables.REVISIONS_KEEP_DAYS,
      trashKeepDays: variables.TRASH_KEEP_DAYS,
      previewLinkTtlSeconds: variables.PREVIEW_LINK_TTL_SECONDS,
    },
    siteCache: {
      sMaxAge: variables.SITE_S_MAXAGE,
      staleWhileRevalidate: variables.SITE_STALE_WHILE_REVALIDATE,
    },
    webhooks: {
      retryBaseMs: variables.WEBHOOK_RETRY_BASE_MS,
      maxAttempts: variables.WEBHOOK_MAX_ATTEMPTS,
      timeoutMs: variables.WEBHOOK_TIMEOUT_MS,
      pollMs: variables.WEBHOOK_POLL_MS,
      logKeepDays: variables.WEBHOOK_LOG_KEEP_DAYS,
    },
    mail: mailSettings(variables),
  };
}

/** A wrong value that came from the settings file says so: it is not in the shell's environment. */
function fromSettingsFile<T>(file: SettingsFile | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const named = file?.names.filter((name) => String(error).includes(`${name} must be`)) ?? [];
    if (!file || named.length === 0) throw error;
    throw new Error(`${(error as Error).message} (${named.join(", ")} set in ${file.path})`);
  }
}
