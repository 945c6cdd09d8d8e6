// Results of reads, kept for as long as the data generation (src/db/generation.ts) stays the same: any
// commit, by this process or another, ends them all, except those kept under the generation of the few
// tables they were read from (a token, a collection), which end when one of those tables changes. Content
// is read far more often than written, and a read through the schema costs several database round trips;
// a kept result costs a map lookup.
// Bounded by an estimate of its size in bytes (keys included: they hold what the client sent), least
// recently used first out; a key longer than MAX_KEY_LENGTH is not kept at all.
import type { Generation } from "../db/generation.ts";

const MAX_KEY_LENGTH = 2048;

interface Kept {
  generation: string;
  value: unknown;
  bytes: number;
  /** Kept under the generation of some tables, not the whole data's. */
  tablewise: boolean;
}

export class ReadCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  private latest = "";

  constructor(
    readonly generation: Generation,
    private readonly maxBytes: number,
  ) {}

  /** The value kept under `key` for this generation; kept values are frozen (shared by requests). */
  get(key: string, generation: string): unknown {
    const found = this.kept.get(key);
    if (!found || found.generation !== generation) return undefined;
    // Most recently used goes last: eviction takes from the front.
    this.kept.delete(key);
    this.kept.set(key, found);
    return found.value;
  }

  set(key: string, generation: string, value: unknown, bytes: number, tablewise = false): void {
    if (!tablewise && generation !== this.latest) {
      // What was kept under an older whole generation cannot be served again.
      for (const [kept, entry] of this.kept) if (!entry.tablewise) this.delete(kept);
      this.latest = generation;
    }
    const size = bytes + key.length * 2;
    if (key.length > MAX_KEY_LENGTH || size > this.maxBytes / 16) return;
    this.delete(key);
    this.kept.set(key, { generation, value: deepFreeze(value), bytes: size, tablewise });
    this.bytes += size;
    for (const [oldest] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /**
   * The value kept under `key` for this generation, or `compute`'s, kept when `size` gives its size in
   * bytes; undefined keeps nothing (errors, not-found answers, output that varies). By default everything
   * but null is kept: made-up tokens and Hosts, which anyone can send, must not push real answers out.
   */
  async keep<T>(
    key: string,
    generation: string,
    compute: () => Promise<T>,
    size: (value: T) => number | undefined = (value) => (value === null ? undefined : 256),
    tablewise = false,
  ): Promise<T> {
    const found = this.get(key, generation);
    if (found !== undefined) return found as T;
    const value = await compute();
    const bytes = size(value);
    if (bytes !== undefined) this.set(key, generation, value, bytes, tablewise);
    return value;
  }

  private delete(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.bytes -= found.bytes;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
