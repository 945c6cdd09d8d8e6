// What recording revisions costs the writes (the target: creates and updates keep at least four fifths
// of their throughput). The write workloads run against the server under test (revisions on, as
// configured by default) and a twin on the same database with REVISIONS_KEEP=0 REVISIONS_KEEP_DAYS=0
// (off), in alternating rounds so that whatever else loads the machine weighs on both alike.
import { join } from "node:path";
import type { BenchDatabase } from "./database.ts";
import { cpuMsOf, startProcess } from "./processes.ts";
import type { Seeded } from "./seed.ts";
import { measure, settings, type Workload } from "./workloads.ts";

export interface RevisionsCost {
  name: string;
  on_requests_per_second: number;
  off_requests_per_second: number;
  /** on / off: 1 is free, 0.8 is the bound. */
  ratio: number;
  on_cpu_ms_per_request: number;
  off_cpu_ms_per_request: number;
  errors: number;
}

const ROUNDS = 4;

interface Server {
  url: string;
  pid: number;
}

export async function revisionsCost(
  on: Server,
  server: { script: string; nodeArgs: string[] },
  database: BenchDatabase,
  seeded: Seeded,
  writes: Workload[],
): Promise<RevisionsCost[]> {
  const twin = await startProcess({
    script: server.script,
    nodeArgs: server.nodeArgs,
    env: { ...database.env, RATE_LIMIT_PER_MINUTE: "0", REVISIONS_KEEP: "0", REVISIONS_KEEP_DAYS: "0" },
    logFile: join(database.dataDir, "server-revisions-off.log"),
  });
  const off: Server = { url: twin.url, pid: twin.child.pid ?? 0 };
  try {
    const costs: RevisionsCost[] = [];
    for (const workload of writes) costs.push(await compare(workload, seeded, on, off));
    return costs;
  } finally {
    await twin.stop();
  }
}

async function compare(workload: Workload, seeded: Seeded, on: Server, off: Server): Promise<RevisionsCost> {
  // One request source for both: creates never repeat a handle across the two servers.
  const options = workload.request(seeded);
  const totals = new Map<Server, { requests: number; seconds: number; cpuMs: number; errors: number }>();
  for (const target of [on, off]) {
    await measure(target.url, options, settings.warmup);
    totals.set(target, { requests: 0, seconds: 0, cpuMs: 0, errors: 0 });
  }
  const roundSeconds = Math.max(1, Math.round(settings.duration / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? [on, off] : [off, on]) {
      const cpuBefore = cpuMsOf(target.pid);
      const result = await measure(target.url, options, roundSeconds);
      const total = totals.get(target);
      if (!total) continue;
      total.requests += result.requests.total;
      total.seconds += roundSeconds;
      total.cpuMs += cpuMsOf(target.pid) - cpuBefore;
      total.errors += result.errors + result.timeouts + result.non2xx;
    }
  }
  const rate = (target: Server) => {
    const total = totals.get(target);
    return total ? total.requests / total.seconds : 0;
  };
  const cpu = (target: Server) => {
    const total = totals.get(target);
    return total ? Math.round((total.cpuMs / Math.max(total.requests, 1)) * 1000) / 1000 : 0;
  };
  return {
    name: workload.name,
    on_requests_per_second: Math.round(rate(on)),
    off_requests_per_second: Math.round(rate(off)),
    ratio: Math.round((rate(on) / Math.max(rate(off), 1)) * 1000) / 1000,
    on_cpu_ms_per_request: cpu(on),
    off_cpu_ms_per_request: cpu(off),
    errors: (totals.get(on)?.errors ?? 0) + (totals.get(off)?.errors ?? 0),
  };
}

export function printRevisionsCost(costs: RevisionsCost[]): void {
  if (costs.length === 0) return;
  console.log("recording revisions (on = defaults, off = REVISIONS_KEEP=0 REVISIONS_KEEP_DAYS=0):");
  for (const cost of costs) {
    console.log(
      `  ${cost.name}: ${cost.on_requests_per_second} req/s on, ${cost.off_requests_per_second} off (ratio ${cost.ratio.toFixed(2)}); ` +
        `CPU ${cost.on_cpu_ms_per_request} vs ${cost.off_cpu_ms_per_request} ms/request${cost.errors ? `; ${cost.errors} errors` : ""}`,
    );
  }
}
