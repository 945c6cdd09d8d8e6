// Counters in Redis (REDIS_URL), so that every server process sharing it shares one budget per key.
// One Lua script counts and sets the window's expiry atomically. When Redis cannot answer (down, slow,
// not yet connected) requests are let through and a warning is logged, once per outage: a broken
// limiter must not take the API down with it.
import { Redis } from "ioredis";
import type { Log } from "../request-log.ts";
import type { CounterStore } from "./window.ts";

// Returns {count, milliseconds left}. PEXPIRE only on the window's first request; a key somehow left
// without an expiry gets one, so it can never block for good.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export function createRedisStore(url: string, prefix: string, log: Log): CounterStore {
  const redis = new Redis(url, {
    // Fail fast instead of queueing commands while disconnected, and never wait long for an answer.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  redis.defineCommand("cmsRateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  let failing = false;
  const warn = (error: unknown) => {
    if (failing) return;
    failing = true;
    log({
      level: "warn",
      msg: "rate limiter: Redis unavailable, requests are not limited",
      error: String((error as Error)?.message ?? error),
    });
  };
  redis.on("error", warn);
  redis.on("ready", () => {
    if (failing) log({ level: "info", msg: "rate limiter: Redis available again" });
    failing = false;
  });
  const hit = (redis as unknown as Record<string, (key: string, ms: number) => Promise<[number, number]>>)
    .cmsRateLimitHit;
  return {
    async hit(key, windowMs) {
      try {
        const [count, resetInMs] = (await hit?.call(redis, `${prefix}${key}`, windowMs)) ?? [];
        if (count === undefined || resetInMs === undefined) return undefined;
        failing = false;
        return { count, resetInMs };
      } catch (error) {
        warn(error);
        return undefined;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
