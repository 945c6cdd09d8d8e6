// Results of reads, each kept under its key and the generation of the accounts it was read from
// (context.ts `keep`): a write bumps the generation, so what was kept before it is never asked for
// again and ages out. Content is read far more often than written, and a read through the schema costs
// several database round trips; a kept result costs a map lookup.
// Bounded by the size in bytes of what is kept (keys included: they hold what the client sent), least
// recently used first out; a key longer than MAX_KEY_LENGTH is not kept at all.
// Two budgets: whole answers (READ_CACHE_MB) and lookups of one account (LOOKUP_CACHE_MB: its
// collections, blueprints, templates, forms, a list's total). Lookups are what a CMS keeps of its schema
// (Directus' CACHE_SCHEMA beside CACHE_ENABLED), and each budget turns off on its own.
import { LRUCache } from "lru-cache";
import type { Config } from "../config.ts";
import { queryCountingEnabled } from "../db/query-count.ts";

const MAX_KEY_LENGTH = 2048;

export interface ReadCacheBudgets {
  /** Whole answers (READ_CACHE_MB); 0 keeps none. */
  answerBytes: number;
  /** Lookups of one account (LOOKUP_CACHE_MB); 0 keeps none. */
  lookupBytes: number;
}

export class ReadCache {
  private readonly answers: LRUCache<string, { value: unknown }>;
  private readonly lookups: LRUCache<string, { value: unknown }>;

  constructor(private readonly budgets: ReadCacheBudgets) {
    this.answers = new LRUCache({ maxSize: Math.max(budgets.answerBytes, 1) });
    this.lookups = new LRUCache({ maxSize: Math.max(budgets.lookupBytes, 1) });
  }

  /** Whether lookups (or whole answers) are kept at all. */
  keeps(lookup: boolean): boolean {
    return (lookup ? this.budgets.lookupBytes : this.budgets.answerBytes) > 0;
  }

  /** The value kept under `key`; kept values are frozen. */
  get(key: string, lookup: boolean): unknown {
    return (lookup ? this.lookups : this.answers).get(key)?.value;
  }

  set(key: string, value: unknown, bytes: number, lookup: boolean): void {
    const kept = lookup ? this.lookups : this.answers;
    const size = bytes + key.length * 2;
    if (!this.keeps(lookup) || key.length > MAX_KEY_LENGTH || size > kept.maxSize / 16) return;
    kept.set(key, { value: deepFreeze(value) }, { size });
  }
}

/** What a server keeps of its answers and of its lookups, from its settings; undefined when nothing. */
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

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
