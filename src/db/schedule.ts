// Scheduled publishing: an entry published with a `published_at` in the future stays off the public site
// and content queries until that moment, then shows up without any write. Public reads are made "as of"
// a time (site/scope.ts `visible`), and kept answers (read-cache.ts) are keyed by the data generation, so
// the generation a request reads names that time too: `<data generation>@<as of>`.
//
// A schedule epoch is the span in which public answers cannot change with the clock: it starts at `asOf`
// and ends at `until`, the earliest `publishedAt` after `asOf` among published entries. No entry is due
// inside it, so a read as of `asOf` is right at any moment before `until`. A new epoch starts (as of
// now) when the entries may have changed (their generation moved: a write here or in another process)
// or when `until` has passed; reads keyed by the old one are never served again. In the steady state a
// request costs a clock comparison: the next publish moment is read only for a new epoch, by one index
// seek (generation.ts; on SQLite the Entry table's own generation tells when entries changed, PostgreSQL
// tells only that something did). Concurrent requests share that reading. Each process keeps its own
// epoch and sees a moment pass by its own clock; another process's write reaches it through the data
// generation, as every other write does. (Entry counts, entry-reads.ts, are kept under the plain data
// generation: a public count's where-clause holds its as-of time, so it is a different count.)
import type { DatabaseGeneration, Generation } from "./generation.ts";

interface Epoch {
  /** The entries' generation it was computed for. */
  entries: string;
  asOf: number;
  /** The next publish moment, Infinity when none is scheduled. */
  until: number;
}

export function scheduledGeneration(base: DatabaseGeneration): Generation {
  let epoch: Epoch | undefined;
  // Requests that find the epoch outdated at once share one reading of the next moment.
  let pending: { entries: string; epoch: Promise<Epoch> } | undefined;

  const start = (entries: string, asOf: number, nextPublish: () => Promise<number | null>) => {
    const started = nextPublish().then((next) => {
      const fresh = { entries, asOf, until: next ?? Number.POSITIVE_INFINITY };
      if (!epoch || epoch.asOf <= asOf) epoch = fresh;
      return fresh;
    });
    pending = { entries, epoch: started };
    const settled = () => {
      if (pending?.epoch === started) pending = undefined;
    };
    started.then(settled, settled);
    return started;
  };

  const generation = async () => {
    const now = Date.now();
    const reading = await base.scheduleReading(now);
    let current = epoch;
    if (!current || current.entries !== reading.entries || now >= current.until) {
      current =
        pending?.entries === reading.entries
          ? await pending.epoch
          : await start(reading.entries, now, reading.nextPublish);
    }
    return `${reading.generation}@${current.asOf}`;
  };
  // Lookups kept per table (a token, a collection) do not depend on the clock; reads of entries are
  // kept under the whole generation, which names the epoch.
  generation.of = async (tables: readonly string[], current: () => Promise<string>) =>
    tables.includes("Entry") ? undefined : base.of(tables, async () => withoutEpoch(await current()));
  return generation;
}

/** The time public reads are made as of under `generation`, when it is a scheduled one. */
export function scheduledAsOf(generation: string): Date | undefined {
  const at = generation.lastIndexOf("@");
  if (at < 0) return undefined;
  const asOf = Number(generation.slice(at + 1));
  return Number.isFinite(asOf) ? new Date(asOf) : undefined;
}

function withoutEpoch(generation: string): string {
  const at = generation.lastIndexOf("@");
  return at < 0 ? generation : generation.slice(0, at);
}
