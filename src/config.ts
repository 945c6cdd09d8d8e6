// Runtime settings, read once from the environment (decisions.md, "Running the service").
import { resolve } from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * postgresql://… (or postgres://…) selects PostgreSQL, file:PATH an SQLite file at PATH; unset, the
   * embedded database under dataDir.
   */
  databaseUrl: string | undefined;
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
  /**
   * Let server-side fetches (assets_upload_from_url) reach loopback, private and link-local addresses
   * (OUTBOUND_ALLOW_PRIVATE=true); refused by default.
   */
  outboundAllowPrivate: boolean;
  /** How long history and deleted records are kept: see HistorySettings. */
  history: HistorySettings;
  webhooks: WebhookSettings;
}

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: portNumber(env.PORT),
    host: env.HOST ?? "0.0.0.0",
    dataDir: resolve(env.CMS_DATA_DIR ?? "./data"),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    jsonBodyLimit: 2 * 1024 * 1024,
    uploadLimit: byteCount(env.CMS_UPLOAD_LIMIT, "CMS_UPLOAD_LIMIT", DEFAULT_UPLOAD_LIMIT),
    rateLimitPerMinute: whole(
      env.RATE_LIMIT_PER_MINUTE,
      "RATE_LIMIT_PER_MINUTE",
      DEFAULT_RATE_LIMIT_PER_MINUTE,
      0,
    ),
    anonymousRateLimitPerMinute: whole(
      env.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
      "RATE_LIMIT_ANONYMOUS_PER_MINUTE",
      DEFAULT_ANONYMOUS_RATE_LIMIT_PER_MINUTE,
      0,
    ),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.RATE_LIMIT_REDIS_PREFIX || "cms:rate:",
    requestTimeoutMs: whole(env.REQUEST_TIMEOUT_MS, "REQUEST_TIMEOUT_MS", 30_000, 1),
    headersTimeoutMs: whole(env.HEADERS_TIMEOUT_MS, "HEADERS_TIMEOUT_MS", 10_000, 1),
    trustProxy: env.TRUST_PROXY === "true" || env.TRUST_PROXY === "1",
    readCacheBytes: whole(env.READ_CACHE_MB, "READ_CACHE_MB", 32, 0) * 1024 * 1024,
    outboundAllowPrivate: flag(env.OUTBOUND_ALLOW_PRIVATE, "OUTBOUND_ALLOW_PRIVATE"),
    history: {
      revisionsKeep: whole(env.REVISIONS_KEEP, "REVISIONS_KEEP", 100, 0),
      revisionsKeepDays: whole(env.REVISIONS_KEEP_DAYS, "REVISIONS_KEEP_DAYS", 30, 0),
      trashKeepDays: whole(env.TRASH_KEEP_DAYS, "TRASH_KEEP_DAYS", 30, 0),
      previewLinkTtlSeconds: whole(env.PREVIEW_LINK_TTL_SECONDS, "PREVIEW_LINK_TTL_SECONDS", 3600, 1),
    },
    webhooks: {
      retryBaseMs: whole(env.WEBHOOK_RETRY_BASE_MS, "WEBHOOK_RETRY_BASE_MS", 10_000, 1),
      maxAttempts: whole(env.WEBHOOK_MAX_ATTEMPTS, "WEBHOOK_MAX_ATTEMPTS", 8, 1),
      timeoutMs: whole(env.WEBHOOK_TIMEOUT_MS, "WEBHOOK_TIMEOUT_MS", 10_000, 1),
      pollMs: whole(env.WEBHOOK_POLL_MS, "WEBHOOK_POLL_MS", 1_000, 10),
      logKeepDays: whole(env.WEBHOOK_LOG_KEEP_DAYS, "WEBHOOK_LOG_KEEP_DAYS", 30, 1),
    },
  };
}

function portNumber(value: string | undefined): number {
  const port = whole(value, "PORT", 3000, 0);
  if (port > 65535) throw new Error("PORT must be a whole number from 0 to 65535");
  return port;
}

/** postgresql://, postgres:// or file:PATH; anything else is refused (a mysql:// URL once ran on SQLite). */
function databaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (/^file:./.test(value) || (/^postgres(ql)?:\/\//.test(value) && URL.canParse(value))) return value;
  // The scheme only: the rest may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(value)?.[0];
  throw new Error(
    `DATABASE_URL must be a postgresql:// URL (got ${scheme ? `"${scheme}…"` : "no scheme"}); leave it unset for the embedded database under CMS_DATA_DIR`,
  );
}

function whole(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min)
    throw new Error(`${name} must be a whole number >= ${min}`);
  return number;
}

function byteCount(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const bytes = Number(value);
  // File sizes are stored as 32-bit integers.
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 2 ** 31 - 1)
    throw new Error(`${name} must be a whole number of bytes, at most 2147483647`);
  return bytes;
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value.trim() === "") return false;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new Error(`${name} must be true or false`);
}
