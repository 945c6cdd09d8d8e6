// Background upkeep a server process runs now (without waiting) and then hourly, one run at a time,
// outside any request: a failure is logged and the next hour tries again.
import type { Log } from "../log.ts";

const EVERY_MS = 60 * 60 * 1000;

/** Returns a stop function. `name` says what failed in the log line. */
export function runHourly(name: string, task: () => Promise<void>, log: Log): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (error) {
      log({ level: "error", msg: `${name} failed`, error: String(error) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, EVERY_MS);
  // The timer alone never keeps the process alive (shutdown waits for requests, not for upkeep).
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
