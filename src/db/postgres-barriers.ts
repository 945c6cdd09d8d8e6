// The bookkeeping of a process's barriers (postgres-changes.ts): which other processes listen, and which
// of this process's barriers each has answered. A process that let one go unanswered for ANSWER_TIMEOUT_MS
// is not waited for until it answers again (one stopped without closing its connection stays listed until
// PostgreSQL notices); it still gets every barrier, so that answering one, it is waited for again.

/** How long a barrier waits for the other processes' answers. */
export const ANSWER_TIMEOUT_MS = 2_000;

export class Barriers {
  private last = 0;
  private members: number[] = [];
  private listedAt = Number.NEGATIVE_INFINITY;
  private readonly heardUpTo = new Map<number, number>();
  private readonly silent = new Set<number>();
  /** Waits for answers, each told to look again, or that the answers cannot come (`lost`). */
  private readonly waiting = new Set<(lost?: boolean) => void>();

  next(): number {
    return ++this.last;
  }

  /** The other listeners as read by a query sent at `asked` (performance.now()). */
  listed(pids: number[], asked: number): void {
    if (asked < this.listedAt) return;
    this.members = pids;
    this.listedAt = asked;
    // Forget those gone.
    for (const pid of this.heardUpTo.keys()) if (!pids.includes(pid)) this.heardUpTo.delete(pid);
    for (const pid of this.silent) if (!pids.includes(pid)) this.silent.delete(pid);
  }

  /** No other listener, by a list asked for after `since`. */
  alone(since: number): boolean {
    return this.listedAt >= since && this.members.length === 0;
  }

  answered(pid: number, number: number): void {
    if (!Number.isSafeInteger(number)) return;
    if (number > (this.heardUpTo.get(pid) ?? 0)) this.heardUpTo.set(pid, number);
    this.answering(pid);
  }

  /** `pid` answers again (an answer, or its word that it is back): it is waited for again. */
  answering(pid: number): void {
    this.silent.delete(pid);
    for (const recheck of this.waiting) recheck();
  }

  /**
   * Resolves true once each of `listed` has answered barrier `number` or is not waited for (timed out:
   * those not answered become silent); false if the answers cannot arrive, the connection they come on
   * being lost (`lost`): the barrier is to be sent again.
   */
  heardBy(listed: number[], number: number): Promise<boolean> {
    const unheard = () =>
      listed.filter((pid) => !this.silent.has(pid) && (this.heardUpTo.get(pid) ?? 0) < number);
    return new Promise<boolean>((resolve) => {
      const done = (heard: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(recheck);
        resolve(heard);
      };
      const recheck = (lost?: boolean) => {
        if (lost) done(false);
        else if (unheard().length === 0) done(true);
      };
      const timer = setTimeout(() => {
        for (const pid of unheard()) this.silent.add(pid);
        done(true);
      }, ANSWER_TIMEOUT_MS);
      this.waiting.add(recheck);
      recheck();
    });
  }

  /**
   * A new listening connection: what the others said while none listened (that they are back) went
   * unheard, so none of them is taken as silent any more.
   */
  relisten(): void {
    this.silent.clear();
  }

  /** The connection the answers come on is gone: every wait for them ends (heardBy resolves false). */
  lost(): void {
    for (const recheck of this.waiting) recheck(true);
  }
}

/**
 * Callers share runs of `run`: one that arrives while a run is on its way waits for the next, which
 * begins after it arrived (a barrier sent before a caller's commit does not stand behind it).
 */
export function shared(run: () => Promise<void>): () => Promise<void> {
  let onTheWay: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  const call = (): Promise<void> => {
    if (!onTheWay) {
      onTheWay = run().finally(() => {
        onTheWay = undefined;
      });
      return onTheWay;
    }
    following ??= onTheWay.then(() => {
      following = undefined;
      return call();
    });
    return following;
  };
  return call;
}
