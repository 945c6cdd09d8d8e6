// Scheduled publishing: an entry published with a `published_at` in the future stays off the public site
// and content queries until that moment, then shows up without any write. Public reads are made "as of"
// a time (site/scope.ts `visible`), which the generation a request reads names: `<stamp>@<as of>`.
//
// A schedule epoch is the span in which public answers cannot change with the clock: it starts at `asOf`
// and ends at `until`, the earliest `publishedAt` after `asOf` among published entries. No entry is due
// inside it, so a read as of `asOf` is right at any moment before `until`. When entries may have changed
// (of any account, here or in another process: changes.ts) the next moment is read again; the epoch
// stands unless something is now due, and a new one starts as of now when something is or when `until`
// has passed. Then the accounts whose entries came into view between the two as-of times are told as
// changed (their Entry table, changes.ts), before any request reads as of the new one: an answer kept
// under the old epoch is still right for every other account (none of its entries came due in between),
// so one account's publishing, by a write or by the clock, ends no other account's kept answers. In the
// steady state a request costs a clock comparison; the next publish moment is one index seek, the due
// accounts a range of that index (generation.ts). Concurrent requests share that reading. Each process
// keeps its own epoch and sees a moment pass by its own clock.
// A lookup kept per table needs no epoch (`stamp`); a public list's total is one (src/schema/entries/count.ts)
// whose where-clause holds its as-of time, so each epoch counts anew.
import type { Changes } from "./changes.ts";
import type { Generation, ScheduleReads } from "./generation.ts";

interface Epoch {
  /** The entries' version (changes.ts `tableVersion`) it was computed for. */
  entries: string;
  asOf: number;
  /** The next publish moment, FOREVER when none is scheduled. */
  until: number;
}

const FOREVER = Number.POSITIVE_INFINITY;

export function scheduledGeneration(changes: Changes, reads: ScheduleReads): Generation {
  let epoch: Epoch | undefined;
  // Requests that find the epoch outdated at once share one reading of the next moment.
  let pending: { entries: string; epoch: Promise<Epoch> } | undefined;

  /** Whether a renewal has begun: as-of times may have been handed out, even with no epoch kept yet. */
  let begun = false;

  /**
   * Entries changed (or the epoch ended): when the epoch has not ended and nothing is due between its
   * as-of time and now, it stands with a new end; otherwise a new one begins now, once the accounts that
   * came due since the old one began are told as changed. Kept under the entries' version it was read
   * for: a write heard during the reads may have moved the next moment, and the next request reads again.
   */
  const renew = async (entries: string, now: number, old: Epoch | undefined, first: boolean) => {
    if (old && now < old.until) {
      const next = await reads.nextPublish(old.asOf);
      if (next === null || next > now) return { entries, asOf: old.asOf, until: next ?? FOREVER };
    }
    const next = await reads.nextPublish(now);
    // Without an epoch kept, an earlier renewal that another replaced may have handed out its as-of time.
    const due = old ? await reads.dueAccounts(old.asOf, now) : first ? [] : undefined;
    const unchanged = changes.tableVersion("Entry") === entries;
    if (!due) changes.everything();
    for (const account of due ?? []) changes.changed(account, "Entry");
    // Telling of the due accounts changes the version too: kept under the new one unless a write came
    // during the reads.
    return {
      entries: unchanged ? changes.tableVersion("Entry") : entries,
      asOf: now,
      until: next ?? FOREVER,
    };
  };

  const start = (entries: string, now: number) => {
    const started = renew(entries, now, epoch, !begun).then((fresh) => {
      if (pending?.epoch === started) epoch = fresh;
      return fresh;
    });
    begun = true;
    pending = { entries, epoch: started };
    const settled = () => {
      if (pending?.epoch === started) pending = undefined;
    };
    started.then(settled, settled);
    return started;
  };

  const stamp = async () => changes.stamp();
  // A stamp taken earlier is as safe (what is kept under it ends at any change since); the epoch is now's.
  const at = async (stamp: number) => {
    const now = Date.now();
    const entries = changes.tableVersion("Entry");
    let current = epoch;
    if (!current || current.entries !== entries || now >= current.until) {
      current = pending?.entries === entries ? await pending.epoch : await start(entries, now);
    }
    return `${stamp}@${current.asOf}`;
  };
  const generation = async () => at(await stamp());
  return Object.assign(generation, { stamp, at, changes });
}

/** The time public reads are made as of under `generation`, when it is a scheduled one. */
export function scheduledAsOf(generation: string): Date | undefined {
  const at = generation.lastIndexOf("@");
  if (at < 0) return undefined;
  const asOf = Number(generation.slice(at + 1));
  return Number.isFinite(asOf) ? new Date(asOf) : undefined;
}
