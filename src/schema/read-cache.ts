// Results of reads, kept until something they were read from changes: the accounts the request read
// (its token's, its Host's), in some tables only where the value was read from those (a token, a
// collection), so one tenant's writes end none of another tenant's kept answers, and a stream of new
// entries ends no kept lookup of collections. What changed since a read began is told by changes.ts,
// here or in another process; a public read also names the schedule epoch it was made in (schedule.ts).
// Content is read far more often than written, and a read through the schema costs several database
// round trips; a kept result costs a map lookup.
// Bounded by an estimate of its size in bytes (keys included: they hold what the client sent), least
// recently used first out; a key longer than MAX_KEY_LENGTH is not kept at all.
import { LRUCache } from "lru-cache";
import type { Generation } from "../db/generation.ts";

const MAX_KEY_LENGTH = 2048;

/** What a kept value was read under: the request's generation, and the accounts and tables it read. */
export interface ReadScope {
  generation: string;
  accounts: readonly string[];
  /** Read from these tables only; then the schedule epoch does not matter either. */
  tables?: readonly string[];
}

interface Kept extends ReadScope {
  value: unknown;
}

export class ReadCache {
  private readonly kept: LRUCache<string, Kept>;

  constructor(
    readonly generation: Generation,
    private readonly maxBytes: number,
  ) {
    this.kept = new LRUCache({ maxSize: maxBytes });
  }

  /** The value kept under `key` if nothing it was read from changed since; kept values are frozen. */
  get(key: string, generation: string): unknown {
    const found = this.kept.get(key);
    if (!found) return undefined;
    const [stamp, epoch] = parse(found.generation);
    const [, currentEpoch] = parse(generation);
    const fresh =
      (found.tables || epoch === currentEpoch) &&
      this.generation.changes.unchangedSince(stamp, found.accounts, found.tables);
    if (fresh) return found.value;
    this.kept.delete(key);
    return undefined;
  }

  set(key: string, scope: ReadScope, value: unknown, bytes: number): void {
    const size = bytes + key.length * 2;
    if (key.length > MAX_KEY_LENGTH || size > this.maxBytes / 16) return;
    this.kept.set(key, { ...scope, value: deepFreeze(value) }, { size });
  }
}

/** `<stamp>@<as of>` (schedule.ts) as the stamp and the epoch. */
function parse(generation: string): [number, string] {
  const at = generation.indexOf("@");
  return at < 0 ? [Number(generation), ""] : [Number(generation.slice(0, at)), generation.slice(at + 1)];
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
