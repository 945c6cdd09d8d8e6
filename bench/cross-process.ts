// `npm run bench -- --cross-process`: how soon a write acknowledged by one server process is read through
// another (issue #20 item 1; CROSS_PROCESS_READS, docs/deployment.md), on PostgreSQL with the read cache on.
// A writer process and a reader per setting, on one database: each round reads an entry through the reader
// (so that its answer is kept), updates its title through the writer, and from the moment the update is
// answered reads it through the reader until the new title comes back. "Stale" rounds are those whose first
// read still had the old title; the client is sequential on loopback, so this shows what such a client sees,
// not the bound (the writer's answer and the next request take longer than most notifications). Measured on a
// quiet machine and while 8 connections read other entries through the reader. Then how long after a
// commit's answer a notification reaches an idle listener (notice-delay.ts), and the readers' kept entry
// reads with no writes: what the catch-up's round trip costs.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import type { BenchDatabase } from "./database.ts";
import { type NoticeDelay, noticeDelay, round3 } from "./notice-delay.ts";
import { type Started, startProcess } from "./processes.ts";
import { printRows } from "./report.ts";
import type { Seeded } from "./seed.ts";
import { measure, settings, workloadNamed } from "./workloads.ts";

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
  /** Kept entry reads per second through this setting's reader with no writes (on its "quiet" row). */
  kept_reads_per_second?: number;
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
    const writer = await startedAs("writer");
    const readers: Record<Setting, Started> = {
      notified: await startedAs("notified", { CROSS_PROCESS_READS: "notified" }),
      "at-once": await startedAs("at-once", { CROSS_PROCESS_READS: "at-once" }),
    };
    const rows: CrossProcessRow[] = [];
    for (const setting of SETTINGS)
      rows.push(await rounds(setting, "quiet", writer, readers[setting], seeded));
    for (const setting of SETTINGS) {
      const load = readingUntilStopped(readers[setting].url, seeded);
      try {
        rows.push(await rounds(setting, "reading", writer, readers[setting], seeded));
      } finally {
        await load.stop();
      }
    }
    const notices = await noticeDelay(database.env.DATABASE_URL as string, seeded.accountId, ROUNDS);
    const kept = await keptThroughput(readers, seeded);
    printCrossProcess(rows, kept, notices);
    return {
      rows: rows.map((row) =>
        row.load === "quiet" ? { ...row, kept_reads_per_second: kept[row.setting] } : row,
      ),
      notice_delay: notices,
    };
  } finally {
    for (const process of started) await process.stop();
  }
}

/**
 * Kept entry reads per second through each reader with no writes, in alternating halves (at-once,
 * notified, notified, at-once) so that the machine's drift weighs on both alike: what the round trip costs.
 */
async function keptThroughput(
  readers: Record<Setting, Started>,
  seeded: Seeded,
): Promise<Record<Setting, number>> {
  const options = workloadNamed("rest_entry").request(seeded);
  const totals = { notified: { requests: 0, seconds: 0 }, "at-once": { requests: 0, seconds: 0 } };
  for (const reader of Object.values(readers))
    await measure(reader.url, options, { amount: settings.warmupRequests });
  const half = Math.max(1, Math.round(settings.duration / 2));
  for (const setting of ["at-once", "notified", "notified", "at-once"] as const) {
    const result = await measure(readers[setting].url, options, half, { connections: LOAD_CONNECTIONS });
    totals[setting].requests += result.requests.total;
    totals[setting].seconds += result.duration;
  }
  const rate = ({ requests, seconds }: { requests: number; seconds: number }) =>
    Math.round(requests / seconds);
  return { notified: rate(totals.notified), "at-once": rate(totals["at-once"]) };
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
  for (let round = 0; round < ROUNDS; round++) {
    const title = `${setting} ${load} ${round}`;
    await titleThrough(reader);
    await titleThrough(reader); // now kept
    const updated = await fetch(`${writer.url}${path}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ title }),
    });
    if (!updated.ok) throw new Error(`update: ${updated.status} ${await updated.text()}`);
    await updated.arrayBuffer();
    const answered = performance.now();
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
  };
}

function printCrossProcess(
  rows: CrossProcessRow[],
  kept: Record<Setting, number>,
  notice: NoticeDelay,
): void {
  printRows([
    ["CROSS_PROCESS_READS", "load", "rounds", "stale first reads", "stale for at most (ms)", "never fresh"],
    ...rows.map((row) => [
      row.setting,
      row.load,
      String(row.rounds),
      String(row.stale_rounds),
      String(row.stale_ms_max),
      String(row.never_fresh),
    ]),
  ]);
  console.log(
    `notification after the commit's answer, idle listener: p50 ${notice.delay_ms_p50} ms, p99 ${notice.delay_ms_p99} ms, max ${notice.delay_ms_max} ms; heard first in ${notice.heard_first} of ${notice.rounds}; not heard within 2 s: ${notice.not_heard}`,
  );
  console.log(
    `kept entry reads, no writes: notified ${kept.notified} req/s, at-once ${kept["at-once"]} req/s`,
  );
}
