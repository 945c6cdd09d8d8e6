// `npm run bench -- --cross-process`: how soon a write acknowledged by one server process is read through
// another (CROSS_PROCESS_READS, docs/deployment.md), on PostgreSQL with the read cache on.
// The setting is the writer's: with "at-once" it answers once every listening process has heard the write,
// with "notified" at once. A writer per setting and one reader, on one database: each round reads an entry
// through the reader (so that its answer is kept), updates its title through the writer (timed: what the
// wait costs a write), and from the moment the update is answered reads it through the reader until the
// new title comes back. "Stale" rounds are those whose first read still had the old title; the client is
// sequential on loopback, so this shows what such a client sees, not the bound. Measured on a quiet machine
// and while 8 connections read other entries through the reader. Then how long after a commit's answer a
// notification reaches an idle listener (notice-delay.ts).
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import type { BenchDatabase } from "./database.ts";
import { type NoticeDelay, noticeDelay, round3 } from "./notice-delay.ts";
import { type Started, startProcess } from "./processes.ts";
import { printRows } from "./report.ts";
import type { Seeded } from "./seed.ts";
import { workloadNamed } from "./workloads.ts";

const ROUNDS = Number(process.env.BENCH_CROSS_PROCESS_ROUNDS ?? 300);
const GIVE_UP_MS = 2_000;
const LOAD_CONNECTIONS = 8;
const SETTINGS = ["notified", "at-once"] as const;
type Setting = (typeof SETTINGS)[number];

export interface CrossProcessRow {
  setting: Setting;
  load: "quiet" | "reading";
  rounds: number;
  /** Rounds whose first read after the update's answer still had the old title. */
  stale_rounds: number;
  /** The longest time from the update's answer to the first fresh read, over the stale rounds (0: none). */
  stale_ms_max: number;
  /** Rounds with no fresh read within GIVE_UP_MS. */
  never_fresh: number;
  /** The update's time to its answer, through this setting's writer, in ms. */
  update_ms_p50: number;
  update_ms_p99: number;
}

export interface CrossProcessRun {
  rows: CrossProcessRow[];
  /** From a commit's answer to its notification on another, idle connection (notice-delay.ts). */
  notice_delay: NoticeDelay;
}

interface Server {
  script: string;
  nodeArgs: string[];
}

export async function crossProcessRun(
  server: Server,
  database: BenchDatabase,
  seeded: Seeded,
): Promise<CrossProcessRun> {
  const start = (role: string, env: Record<string, string> = {}) =>
    startProcess({
      script: server.script,
      nodeArgs: server.nodeArgs,
      env: { ...database.env, RATE_LIMIT_PER_MINUTE: "0", ...env },
      logFile: join(database.dataDir, `cross-process-${role}.log`),
    });
  const started: Started[] = [];
  const startedAs = async (role: string, env?: Record<string, string>) => {
    const process = await start(role, env);
    started.push(process);
    return process;
  };
  try {
    const reader = await startedAs("reader");
    const writers: Record<Setting, Started> = {
      notified: await startedAs("notified", { CROSS_PROCESS_READS: "notified" }),
      "at-once": await startedAs("at-once", { CROSS_PROCESS_READS: "at-once" }),
    };
    const rows: CrossProcessRow[] = [];
    for (const setting of SETTINGS)
      rows.push(await rounds(setting, "quiet", writers[setting], reader, seeded));
    for (const setting of SETTINGS) {
      const load = readingUntilStopped(reader.url, seeded);
      try {
        rows.push(await rounds(setting, "reading", writers[setting], reader, seeded));
      } finally {
        await load.stop();
      }
    }
    const notices = await noticeDelay(database.env.DATABASE_URL as string, seeded.accountId, ROUNDS);
    printCrossProcess(rows, notices);
    return { rows, notice_delay: notices };
  } finally {
    for (const process of started) await process.stop();
  }
}

/** Kept entry reads through `url` on LOAD_CONNECTIONS connections, until stopped. */
function readingUntilStopped(url: string, seeded: Seeded): { stop(): Promise<autocannon.Result> } {
  const { setupRequest, ...request } = workloadNamed("rest_entry").request(seeded);
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    const options = {
      url,
      connections: LOAD_CONNECTIONS,
      duration: 3_600,
      requests: [{ ...request, setupRequest } as autocannon.Request],
    };
    instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  return {
    stop: () => {
      instance?.stop();
      return finished;
    },
  };
}

async function rounds(
  setting: CrossProcessRow["setting"],
  load: CrossProcessRow["load"],
  writer: Started,
  reader: Started,
  seeded: Seeded,
): Promise<CrossProcessRow> {
  const path = `/v1/accounts/${seeded.accountId}/collections/post/entries/${seeded.postHandles[0]}`;
  const headers = { authorization: `Bearer ${seeded.token}`, "content-type": "application/json" };
  const titleThrough = async (node: Started) => {
    const response = await fetch(`${node.url}${path}`, { headers });
    return ((await response.json()) as { title?: string }).title;
  };
  let stale = 0;
  let staleMs = 0;
  let never = 0;
  const updates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const title = `${setting} ${load} ${round}`;
    await titleThrough(reader);
    await titleThrough(reader); // now kept
    const sent = performance.now();
    const updated = await fetch(`${writer.url}${path}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ title }),
    });
    if (!updated.ok) throw new Error(`update: ${updated.status} ${await updated.text()}`);
    await updated.arrayBuffer();
    const answered = performance.now();
    updates.push(answered - sent);
    for (let read = 0; ; read++) {
      const began = performance.now();
      if ((await titleThrough(reader)) === title) {
        if (read > 0) {
          stale++;
          staleMs = Math.max(staleMs, began - answered);
        }
        break;
      }
      if (began - answered > GIVE_UP_MS) {
        never++;
        break;
      }
    }
  }
  return {
    setting,
    load,
    rounds: ROUNDS,
    stale_rounds: stale,
    stale_ms_max: round3(staleMs),
    never_fresh: never,
    update_ms_p50: round3(percentile(updates, 0.5)),
    update_ms_p99: round3(percentile(updates, 0.99)),
  };
}

function percentile(values: number[], rank: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(rank * sorted.length))] ?? 0;
}

function printCrossProcess(rows: CrossProcessRow[], notice: NoticeDelay): void {
  printRows([
    [
      "CROSS_PROCESS_READS",
      "load",
      "rounds",
      "update p50 ms",
      "update p99 ms",
      "stale first reads",
      "stale for at most (ms)",
      "never fresh",
    ],
    ...rows.map((row) => [
      row.setting,
      row.load,
      String(row.rounds),
      String(row.update_ms_p50),
      String(row.update_ms_p99),
      String(row.stale_rounds),
      String(row.stale_ms_max),
      String(row.never_fresh),
    ]),
  ]);
  console.log(
    `notification after the commit's answer, idle listener: p50 ${notice.delay_ms_p50} ms, p99 ${notice.delay_ms_p99} ms, max ${notice.delay_ms_max} ms; heard first in ${notice.heard_first} of ${notice.rounds}; not heard within 2 s: ${notice.not_heard}`,
  );
}
