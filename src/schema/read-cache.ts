// Results of reads, kept until something they were read from changes: the accounts the request read
// (its token's, its Host's), in some tables only where the value was read from those (a token, a
// collection), so one tenant's writes end none of another tenant's kept answers, and a stream of new
// entries ends no kept lookup of collections. What changed since a read began is told by changes.ts,
// here or in another process, and by schedule.ts of the accounts whose entries came due.
// Content is read far more often than written, and a read through the schema costs several database
// round trips; a kept result costs a map lookup.
// Bounded by an estimate of its size in bytes (keys included: they hold what the client sent), least
// recently used first out; a key longer than MAX_KEY_LENGTH is not kept at all.
// Two budgets: whole answers (READ_CACHE_MB) and lookups read from named tables only (LOOKUP_CACHE_MB: a
// token, an account's collections, blueprints, templates, forms). Lookups are what a CMS keeps of its
// schema (Directus' CACHE_SCHEMA beside CACHE_ENABLED): they outlive a stream of content writes, so with the
// answers off every read still finds them, and each budget turns off on its own.
import { LRUCache } from "lru-cache";
import type { Config } from "../config.ts";
import type { Generation } from "../db/generation.ts";
import { queryCountingEnabled } from "../db/query-count.ts";

const MAX_KEY_LENGTH = 2048;

/** What a kept value was read under: the request's stamp (changes.ts), and the accounts and tables it read. */
export interface ReadScope {
  stamp: number;
  accounts: readonly string[];
  /** Read from these tables only: then only their changes (or a delete of the account's) end it. */
  tables?: readonly string[];
}

interface Kept extends ReadScope {
  value: unknown;
}

export interface ReadCacheBudgets {
  /** Whole answers and other reads of content (READ_CACHE_MB); 0 keeps none. */
  answerBytes: number;
  /** Reads from named tables only (LOOKUP_CACHE_MB); 0 keeps none. */
  lookupBytes: number;
}

export class ReadCache {
  private readonly answers: LRUCache<string, Kept> | undefined;
  private readonly lookups: LRUCache<string, Kept> | undefined;

  constructor(
    readonly generation: Generation,
    budgets: ReadCacheBudgets,
  ) {
    this.answers = budget(budgets.answerBytes);
    this.lookups = budget(budgets.lookupBytes);
  }

  /** Whether values read from `tables` (a lookup) or from anything (without tables) are kept at all. */
  keeps(tables: readonly string[] | undefined): boolean {
    return (tables ? this.lookups : this.answers) !== undefined;
  }

  /**
   * The value kept under `key` if nothing it was read from changed since; kept values are frozen. Asked
   * after the request's generation is read: a new schedule epoch tells then of the accounts whose entries
   * came due (schedule.ts), so what was kept under an older one is right for the others.
   */
  get(key: string, tables?: readonly string[]): unknown {
    const kept = tables ? this.lookups : this.answers;
    const found = kept?.get(key);
    if (!kept || !found) return undefined;
    if (this.generation.changes.unchangedSince(found.stamp, found.accounts, found.tables)) return found.value;
    kept.delete(key);
    return undefined;
  }

  set(key: string, scope: ReadScope, value: unknown, bytes: number): void {
    const kept = scope.tables ? this.lookups : this.answers;
    const size = bytes + key.length * 2;
    if (!kept || key.length > MAX_KEY_LENGTH || size > kept.maxSize / 16) return;
    kept.set(key, { ...scope, value: deepFreeze(value) }, { size });
  }
}

/**
 * What a server keeps of its answers and of its lookups, from its settings; undefined when it keeps
 * nothing (no read cache: on PostgreSQL, no other process's write then waits for it).
 */
export function readBudgets(
  config: Pick<Config, "readCacheBytes" | "lookupCacheBytes">,
): ReadCacheBudgets | undefined {
  // Counting each request's SQL statements (tests of batching) needs every operation to run: no answer is
  // kept. Lookups are, as configured: what a request costs with them is what is counted (a test that
  // counts them too sets LOOKUP_CACHE_MB=0).
  const answerBytes = queryCountingEnabled() ? 0 : config.readCacheBytes;
  const lookupBytes = config.lookupCacheBytes;
  return answerBytes > 0 || lookupBytes > 0 ? { answerBytes, lookupBytes } : undefined;
}

function budget(bytes: number): LRUCache<string, Kept> | undefined {
  return bytes > 0 ? new LRUCache({ maxSize: bytes }) : undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
