// One Redis connection (REDIS_URL) for every counter shared between server processes: the request
// budgets and the form submissions. Each count is one Lua script, atomic in Redis. When Redis cannot
// answer (down, slow, not yet connected) a warning is logged, once per outage, and the caller decides:
// requests go through (a broken limiter must not take the API down), form submissions are counted in the
// process's memory.
import { Redis } from "ioredis";
import type { Log } from "../log.ts";
import type { CounterStore } from "./window.ts";

export interface RedisScript {
  /** The command's name on the connection (scripts are sent once, then called by their SHA). */
  name: string;
  lua: string;
}

export interface RedisLink {
  /** The script's answer for one key; undefined when Redis cannot answer. */
  run<T>(script: RedisScript, key: string, args: (string | number)[]): Promise<T | undefined>;
  close(): Promise<void>;
}

export function connectRedis(url: string, log: Log): RedisLink {
  const redis = new Redis(url, {
    // Fail fast instead of queueing commands while disconnected, and never wait long for an answer.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  const commands = redis as unknown as Record<
    string,
    (key: string, ...args: (string | number)[]) => Promise<unknown>
  >;
  let failing = false;
  const warn = (error: unknown) => {
    if (failing) return;
    failing = true;
    log({
      level: "warn",
      msg: "rate limiter: Redis unavailable; requests are not limited, form submissions are counted per process",
      error: String((error as Error)?.message ?? error),
    });
  };
  redis.on("error", warn);
  redis.on("ready", () => {
    if (failing) log({ level: "info", msg: "rate limiter: Redis available again" });
    failing = false;
  });
  return {
    async run<T>(script: RedisScript, key: string, args: (string | number)[]) {
      if (!commands[script.name]) redis.defineCommand(script.name, { numberOfKeys: 1, lua: script.lua });
      try {
        const answer = (await commands[script.name]?.call(redis, key, ...args)) as T | undefined;
        failing = false;
        return answer;
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

// Returns {count, milliseconds left}. PEXPIRE only on the window's first request; a key somehow left
// without an expiry gets one, so it can never block for good.
const HIT_SCRIPT: RedisScript = {
  name: "cmsRateLimitHit",
  lua: `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`,
};

/** Request counters in Redis: every server process sharing it shares one budget per key. */
export function createRedisStore(link: RedisLink, prefix: string): CounterStore {
  return {
    async hit(key, windowMs) {
      const [count, resetInMs] =
        (await link.run<[number, number]>(HIT_SCRIPT, `${prefix}${key}`, [windowMs])) ?? [];
      if (count === undefined || resetInMs === undefined) return undefined;
      return { count, resetInMs };
    },
    async close() {},
  };
}
