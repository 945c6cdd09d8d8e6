// Read-modify-write without locks: each attempt reads the row, computes the change and writes it only if
// the row is still as read (a version or updated_at condition). A loser of the race tries again on the
// fresh row, after a short random wait so that racers stop colliding.
import { ApiError } from "./errors.ts";

const MAX_ATTEMPTS = 50;

const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + attempt * 2, 25)));

/**
 * The first result `attempt` gives that is not `undefined` (undefined: another writer got there first);
 * a 409 naming `what` when the row kept changing under every attempt.
 */
export async function compareAndSet<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
    const result = await attempt();
    if (result !== undefined) return result;
    await backoff(tries);
  }
  throw new ApiError(409, `The ${what} is being changed by other requests; try again`);
}
