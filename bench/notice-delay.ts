// How long after a commit's answer another, idle connection hears of it (cross-process.ts): how long a
// process with CROSS_PROCESS_READS=notified may serve what it kept before it knows, when its event loop is
// free to read the notice (a busy process adds its own delay, not measured here). One connection updates
// the seeded account (the schema's trigger sends `cms_changes` at commit), a second one listens, as each
// server process's listener does; a round's delay is from the UPDATE's answer to the notification's arrival
// (0 when it arrived first).
import { performance } from "node:perf_hooks";
import pg from "pg";

const GIVE_UP_MS = 2_000;

export interface NoticeDelay {
  rounds: number;
  /** Rounds whose notification arrived before the writer had its answer. */
  heard_first: number;
  /** Rounds whose notification did not come within GIVE_UP_MS (left out of the delays). */
  not_heard: number;
  delay_ms_p50: number;
  delay_ms_p99: number;
  delay_ms_max: number;
}

export async function noticeDelay(url: string, accountId: string, rounds: number): Promise<NoticeDelay> {
  const writer = new pg.Client({ connectionString: url });
  const listener = new pg.Client({ connectionString: url });
  await Promise.all([writer.connect(), listener.connect()]);
  try {
    await listener.query("LISTEN cms_changes");
    let heard: ((at: number) => void) | undefined;
    listener.on("notification", ({ payload }) => {
      if (payload === `${accountId} Account`) heard?.(performance.now());
    });
    const delays: number[] = [];
    let first = 0;
    let missed = 0;
    for (let round = 0; round < rounds; round++) {
      const arrival = new Promise<number | undefined>((resolve) => {
        heard = resolve;
        setTimeout(() => resolve(undefined), GIVE_UP_MS).unref();
      });
      await writer.query(`UPDATE "Account" SET "name" = $1 WHERE "id" = $2`, [`notice ${round}`, accountId]);
      const answered = performance.now();
      const at = await arrival;
      if (at === undefined) {
        missed++;
        continue;
      }
      if (at <= answered) first++;
      delays.push(Math.max(0, at - answered));
    }
    delays.sort((a, b) => a - b);
    const at = (share: number) =>
      round3(delays[Math.min(delays.length - 1, Math.floor(share * delays.length))] ?? 0);
    return {
      rounds,
      heard_first: first,
      not_heard: missed,
      delay_ms_p50: at(0.5),
      delay_ms_p99: at(0.99),
      delay_ms_max: round3(delays.at(-1) ?? 0),
    };
  } finally {
    await Promise.all([writer.end(), listener.end()]);
  }
}

/** Milliseconds to the microsecond, as the bench records them. */
export const round3 = (ms: number) => Math.round(ms * 1000) / 1000;
