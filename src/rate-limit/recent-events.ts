// A sliding-window limit on events per key: "at most `limit` events in the last `windowMs`". Unlike the
// request counters' fixed windows, a burst at the end of one window and another at the start of the next
// cannot double the limit. Form submissions of spam-checked forms are counted with it (the schema's rule,
// src/schema/site/spam.ts); in memory by default, in Redis when REDIS_URL is set (shared by every process).
import { LRUCache } from "lru-cache";
import type { RedisLink } from "./redis.ts";

export interface Admission {
  /** Whether the event was within the limit (then it was counted; a refused event is not). */
  allowed: boolean;
  /** Milliseconds until the oldest counted event leaves the window (0 when allowed). */
  retryInMs: number;
}

export interface RecentEvents {
  /** Counts an event for `key` if fewer than `limit` happened in the last `windowMs`. */
  admit(key: string, limit: number, windowMs: number): Promise<Admission>;
}

/** Keys remembered at once in memory; past it the least recently seen are forgotten. */
const MAX_TRACKED = 50_000;

/** Event times by key, in this process (oldest first within a key). */
export function createMemoryEvents(now: () => number = Date.now): RecentEvents {
  const recent = new LRUCache<string, number[]>({ max: MAX_TRACKED });
  return {
    async admit(key, limit, windowMs) {
      const time = now();
      const times = (recent.get(key) ?? []).filter((at) => time - at < windowMs);
      const oldest = times[0];
      const allowed = times.length < limit;
      if (allowed) times.push(time);
      recent.set(key, times);
      return { allowed, retryInMs: allowed || oldest === undefined ? 0 : oldest + windowMs - time };
    },
  };
}

// A sorted set per key, scored by the Redis server's clock in ms (so processes' clocks never disagree).
// Returns {allowed (1/0), ms until the oldest event leaves the window}.
// (Redis before 5 allows writes after TIME only with effects replication, the only mode from 7 on.)
const ADMIT_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - ms}
end
redis.call('ZADD', KEYS[1], ms, ms .. ':' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`;

/** Shared through Redis; while Redis cannot answer, each process counts on its own (a limit all the same). */
export function createRedisEvents(link: RedisLink, prefix: string): RecentEvents {
  const own = createMemoryEvents();
  let sequence = 0;
  return {
    async admit(key, limit, windowMs) {
      // Members must differ even for events of the same millisecond, from any process.
      const member = `${process.pid}:${Math.random().toString(36).slice(2)}:${++sequence}`;
      const answer = await link.run<[number, number]>(
        { name: "cmsAdmitEvent", lua: ADMIT_SCRIPT },
        `${prefix}${key}`,
        [limit, windowMs, member],
      );
      if (!answer) return own.admit(key, limit, windowMs);
      const [allowed, retryInMs] = answer;
      return { allowed: allowed === 1, retryInMs: Math.max(0, retryInMs) };
    },
  };
}
