// The uncached pass: what reads and creates cost when no kept answer can help. The
// workloads run against a twin of the server on the same database with its read cache off
// (READ_CACHE_MB=0), beside their targets. On PostgreSQL a target is the embedded database's divided
// by 1.5: PostgreSQL is to stay within 1.5x of the embedded database.
import { join } from "node:path";
import type { BenchDatabase } from "./database.ts";
import { startProcess, watchMemory } from "./processes.ts";
import { runWorkload } from "./runner.ts";
import type { Seeded } from "./seed.ts";
import { type Measured, workloadNamed } from "./workloads.ts";

/** req/s on the embedded database, per workload (`rest_list_page_1` expands its entries' author). */
export const uncachedTargets: Record<string, number> = {
  rest_entry: 2500,
  rest_list_page_1: 1000,
  graphql_list: 1000,
  site_entry: 1000,
  rest_create: 1000,
};

export type UncachedRow = Measured & {
  ratio_to_baseline: number;
  target_requests_per_second: number;
  target_met: boolean;
};

export async function uncachedPass(
  server: { script: string; nodeArgs: string[] },
  database: BenchDatabase,
  seeded: Seeded,
  baselineRequestsPerSecond: number,
): Promise<UncachedRow[]> {
  const twin = await startProcess({
    script: server.script,
    nodeArgs: server.nodeArgs,
    env: { ...database.env, RATE_LIMIT_PER_MINUTE: "0", READ_CACHE_MB: "0" },
    logFile: join(database.dataDir, "server-uncached.log"),
  });
  const pid = twin.child.pid ?? 0;
  const memory = watchMemory(pid);
  const slack = database.provider === "postgresql" ? 1.5 : 1;
  console.log("read cache off (READ_CACHE_MB=0), a second server on the same database:");
  try {
    const rows: UncachedRow[] = [];
    for (const [name, target] of Object.entries(uncachedTargets)) {
      const workload = workloadNamed(name);
      const measured = await runWorkload(
        { url: twin.url, pid, peakMb: () => memory.peakMb() },
        { ...workload, name: `${name}_uncached`, title: `${workload.title}, read cache off` },
        workload.request(seeded),
      );
      const ratio = measured.requests_per_second / Math.max(baselineRequestsPerSecond, 1);
      const goal = Math.round(target / slack);
      rows.push({
        ...measured,
        ratio_to_baseline: Math.round(ratio * 1000) / 1000,
        target_requests_per_second: goal,
        target_met: measured.requests_per_second >= goal && measured.errors + measured.non_2xx === 0,
      });
    }
    return rows;
  } finally {
    memory.stop();
    await twin.stop();
  }
}
