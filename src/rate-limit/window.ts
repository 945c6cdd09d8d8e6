// The counting behind rate limiting: a fixed window per key that opens with the key's first request
// and lasts `windowMs`. Every store answers the same question atomically: "count this request; how many
// in the current window, and when does it end?".

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetInMs: number;
}

export interface CounterStore {
  /** Counts one request for `key`; undefined when the store cannot answer (the request is let through). */
  hit(key: string, windowMs: number): Promise<WindowCount | undefined>;
  close(): Promise<void>;
}

/** In-process counters: one server's own budget. Expired windows are swept as the map grows. */
export function createMemoryStore(now: () => number = Date.now): CounterStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let nextSweep = 0;
  const sweep = (time: number) => {
    if (time < nextSweep) return;
    nextSweep = time + 10_000;
    for (const [key, window] of windows) if (window.endsAt <= time) windows.delete(key);
  };
  return {
    async hit(key, windowMs) {
      const time = now();
      sweep(time);
      let window = windows.get(key);
      if (!window || window.endsAt <= time) {
        window = { count: 0, endsAt: time + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetInMs: window.endsAt - time };
    },
    async close() {
      windows.clear();
    },
  };
}
