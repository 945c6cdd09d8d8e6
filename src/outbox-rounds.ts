// The rounds of an outbox's sender (webhook deliveries, mail): one round at a time; a round asked for
// while one runs is run once after it, however many asked; rounds run after a nudge, a retry's delay and
// a poll, always outside any request: a round reads and writes through the client itself, never a request's
// (whose deadline would cut it short: db/deadline.ts).

export interface Rounds {
  /** A round after `delayMs` (or once the running one ends). */
  later(delayMs: number): void;
  /** Rounds every `everyMs`, and one now. */
  start(everyMs: number): void;
  /** No more rounds; resolves when the running one ends, or after `waitMs`. */
  stop(waitMs: number): Promise<void>;
  /** Whether stop() was called: a round checks it between batches. */
  readonly stopped: boolean;
}

export function serialRounds(round: () => Promise<void>, onError: (error: unknown) => void): Rounds {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let poll: NodeJS.Timeout | undefined;

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  }

  return {
    later(delayMs) {
      setTimeout(run, delayMs).unref();
    },
    start(everyMs) {
      stopped = false;
      poll = setInterval(run, everyMs);
      poll.unref();
      run();
    },
    async stop(waitMs) {
      stopped = true;
      clearInterval(poll);
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    },
    get stopped() {
      return stopped;
    },
  };
}
