// Per-client rate limiting: two budgets per minute, each 0 = off. A valid API token is counted against
// RATE_LIMIT_PER_MINUTE (off by default: the owner of a self-hosted server is not throttled on it); every
// other request that is counted (no token, a bad or revoked token, a site form post) is counted against
// its client IP's RATE_LIMIT_ANONYMOUS_PER_MINUTE (600 by default: guessing tokens and flooding forms
// stay slow). Counted in memory by default, in Redis when REDIS_URL is set (shared by every process
// using it). Over the budget, the answer is 429 with Retry-After and the usual error body. Form
// submissions are also counted per form (the schema's spam check decides how many an address may send).
import { Response } from "../http/fetch-api.ts";
import type { Log } from "../log.ts";
import { createMemoryEvents, createRedisEvents, type RecentEvents } from "./recent-events.ts";
import { connectRedis, createRedisStore } from "./redis.ts";
import { type CounterStore, createMemoryStore } from "./window.ts";

export interface RateLimitConfig {
  /** Requests per minute per valid API token; 0 = not limited. */
  perMinute: number;
  /** Requests per minute per client IP of those without a valid token; 0 = not limited. */
  anonymousPerMinute: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key (RATE_LIMIT_REDIS_PREFIX). */
  redisPrefix: string;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the budget is renewed (at least 1). */
  retryAfterSeconds: number;
}

/** Who a request is counted against: a valid token (by its ID), or else the client's IP address. */
export type RateLimitSubject = { kind: "token"; tokenId: string } | { kind: "ip"; address: string };

export interface RateLimiter {
  /** Counts one request of `subject`; undefined when its budget is off or the counter unavailable. */
  check(subject: RateLimitSubject): Promise<RateLimitDecision | undefined>;
  /** Recent form submissions by form and address, counted whether or not requests are limited. */
  submissions: RecentEvents;
  close(): Promise<void>;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(config: RateLimitConfig, log: Log): RateLimiter {
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  const submissions = redis ? createRedisEvents(redis, `${config.redisPrefix}form:`) : createMemoryEvents();
  const close = async () => redis?.close();
  if (config.perMinute <= 0 && config.anonymousPerMinute <= 0)
    return { check: async () => undefined, submissions, close };
  const store: CounterStore = redis ? createRedisStore(redis, config.redisPrefix) : createMemoryStore();
  return {
    async check(subject) {
      const limit = subject.kind === "token" ? config.perMinute : config.anonymousPerMinute;
      if (limit <= 0) return undefined;
      const key = subject.kind === "token" ? `token:${subject.tokenId}` : `ip:${subject.address}`;
      const window = await store.hit(key, WINDOW_MS);
      if (!window) return undefined;
      return {
        allowed: window.count <= limit,
        limit,
        remaining: Math.max(0, limit - window.count),
        retryAfterSeconds: Math.max(1, Math.ceil(window.resetInMs / 1000)),
      };
    },
    submissions,
    close: async () => {
      await store.close();
      await close();
    },
  };
}

/** Tells the client its budget (RateLimit-* headers) on an answer it was allowed. */
export function withBudget(response: Response, decision: RateLimitDecision): Response {
  try {
    response.headers.set("ratelimit-limit", String(decision.limit));
    response.headers.set("ratelimit-remaining", String(decision.remaining));
    response.headers.set("ratelimit-reset", String(decision.retryAfterSeconds));
  } catch {
    // Immutable headers (a response passed through from elsewhere): the budget is only advisory.
  }
  return response;
}

/** The 429 answer: the documented error body, Retry-After and the budget in RateLimit-* headers. */
export function tooManyRequests(decision: RateLimitDecision, graphql: boolean): Response {
  const error = `Too many requests: the limit is ${decision.limit} a minute; retry in ${decision.retryAfterSeconds} s`;
  const body = {
    error,
    details: [],
    // GraphQL clients look for `errors`.
    ...(graphql && { errors: [{ message: error, extensions: { code: "RATE_LIMITED" } }] }),
  };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "retry-after": String(decision.retryAfterSeconds),
      "ratelimit-limit": String(decision.limit),
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(decision.retryAfterSeconds),
    },
  });
}
