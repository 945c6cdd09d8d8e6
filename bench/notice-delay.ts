// How long after a commit's answer another connection hears of it: the bound on what a process with
// CROSS_PROCESS_READS=notified may serve from before it knows (cross-process.ts). One connection updates
// the seeded account (the schema's trigger sends `cms_changes` at commit), a second one listens, as each
// server process's listener does; a round's delay is from the UPDATE's answer to the notification's arrival
// (0 when it arrived first).
import { performance } from "node:perf_hooks";
import pg from "pg";

export interface NoticeDelay {
  rounds: number;
  /** Rounds whose notification arrived before the writer had its answer. */
  heard_first: number;
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
      if (payload?.startsWith(accountId)) heard?.(performance.now());
    });
    const delays: number[] = [];
    let first = 0;
    for (let round = 0; round < rounds; round++) {
      const arrival = new Promise<number>((resolve) => {
        heard = resolve;
      });
      await writer.query(`UPDATE "Account" SET "name" = $1 WHERE "id" = $2`, [`notice ${round}`, accountId]);
      const answered = performance.now();
      const at = await arrival;
      if (at <= answered) first++;
      delays.push(Math.max(0, at - answered));
    }
    delays.sort((a, b) => a - b);
    const at = (share: number) =>
      round3(delays[Math.min(delays.length - 1, Math.floor(share * delays.length))] ?? 0);
    return {
      rounds,
      heard_first: first,
      delay_ms_p50: at(0.5),
      delay_ms_p99: at(0.99),
      delay_ms_max: round3(delays.at(-1) ?? 0),
    };
  } finally {
    await Promise.all([writer.end(), listener.end()]);
  }
}

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;
