// The mixed workload: a tenant's readers while another tenant writes. Account B (its own
// site: domain, theme, 1,000 entries, seeded like the first account) is read by 10 connections, REST entry
// reads and site entry pages in turn, on the server with its read cache on; account A creates entries at a
// fixed 50 req/s on 2 connections of its own. B's reads are measured with no writes ("quiet") and while A
// writes ("writing"), in alternating rounds (quiet, writing, writing, quiet, each half of BENCH_DURATION) so
// that whatever else loads the machine weighs on both alike. Each quiet round follows a warm-up of B's reads
// (each of B's posts read once each way, at least BENCH_WARMUP_REQUESTS): with no writes, B's answers are
// kept, whatever A's writes ended before. The target: B keeps at least 80 % of its quiet throughput while A
// writes at least 90 % of its rate (a server too slow to take A's writes would read B's kept answers).
import { cpuMsOf } from "./processes.ts";
import { probe, type Target } from "./runner.ts";
import type { Seeded } from "./seed.ts";
import { measure, settings, workloadNamed } from "./workloads.ts";

export const tenantB = { name: "Bench B", domain: "b.bench.test", entries: 1000 };

const WRITE_RATE = 50;
const WRITER_CONNECTIONS = 2;
const TARGET_RATIO = 0.8;
const WRITER_SHARE = 0.9;
const PHASES = ["quiet", "writing", "writing", "quiet"] as const;

export interface MixedReads {
  requests_per_second: number;
  /** Means over the phase's rounds. */
  latency_p50_ms: number;
  latency_p99_ms: number;
  requests: number;
  errors: number;
  /** The server's CPU time over the phase per request it answered (B's reads and, writing, A's creates). */
  cpu_ms_per_request: number;
}

export interface MixedCost {
  tenant_b_entries: number;
  reader_connections: number;
  quiet: MixedReads;
  writing: MixedReads;
  /** writing / quiet req/s of B's reads. */
  ratio: number;
  target_ratio: number;
  target_met: boolean;
  writer: {
    target_rate: number;
    achieved_rate: number;
    connections: number;
    requests: number;
    errors: number;
  };
}

interface Totals {
  requests: number;
  seconds: number;
  cpuMs: number;
  errors: number;
  p50: number[];
  p99: number[];
}

export async function mixedCost(server: Target, a: Seeded, b: Seeded): Promise<MixedCost> {
  const readers = [workloadNamed("rest_entry").request(b), workloadNamed("site_entry").request(b)];
  const writer = workloadNamed("rest_create").request(a);
  for (const options of readers) await probe(server.url, options, "mixed: account B's reads");
  await probe(server.url, writer, "mixed: account A's creates");
  const writerLoad = { connections: WRITER_CONNECTIONS, overallRate: WRITE_RATE };
  await measure(server.url, writer, settings.warmup, writerLoad);

  const empty = (): Totals => ({ requests: 0, seconds: 0, cpuMs: 0, errors: 0, p50: [], p99: [] });
  const reads = { quiet: empty(), writing: empty() };
  const writes = { requests: 0, seconds: 0, errors: 0 };
  const roundSeconds = Math.max(1, Math.round(settings.duration / 2));
  const warmup = Math.max(settings.warmupRequests, readers.length * b.postHandles.length);
  for (const phase of PHASES) {
    if (phase === "quiet") await measure(server.url, readers, { amount: warmup });
    const cpuBefore = cpuMsOf(server.pid);
    const [read, written] = await Promise.all([
      measure(server.url, readers, roundSeconds),
      phase === "writing" ? measure(server.url, writer, roundSeconds, writerLoad) : undefined,
    ]);
    const total = reads[phase];
    total.requests += read.requests.total;
    total.seconds += roundSeconds;
    total.cpuMs += cpuMsOf(server.pid) - cpuBefore;
    total.errors += read.errors + read.timeouts + read.non2xx;
    total.p50.push(read.latency.p50);
    total.p99.push(read.latency.p99);
    if (written) {
      writes.requests += written.requests.total;
      writes.seconds += roundSeconds;
      writes.errors += written.errors + written.timeouts + written.non2xx;
    }
  }
  const summary = (total: Totals, served: number): MixedReads => ({
    requests_per_second: Math.round(total.requests / Math.max(total.seconds, 1)),
    latency_p50_ms: mean(total.p50),
    latency_p99_ms: mean(total.p99),
    requests: total.requests,
    errors: total.errors,
    cpu_ms_per_request: Math.round((total.cpuMs / Math.max(served, 1)) * 1000) / 1000,
  });
  const quiet = summary(reads.quiet, reads.quiet.requests);
  const writing = summary(reads.writing, reads.writing.requests + writes.requests);
  const ratio =
    Math.round((writing.requests_per_second / Math.max(quiet.requests_per_second, 1)) * 1000) / 1000;
  const writeRate = Math.round((writes.requests / Math.max(writes.seconds, 1)) * 10) / 10;
  return {
    tenant_b_entries: tenantB.entries,
    reader_connections: settings.connections,
    quiet,
    writing,
    ratio,
    target_ratio: TARGET_RATIO,
    target_met:
      ratio >= TARGET_RATIO &&
      writeRate >= WRITE_RATE * WRITER_SHARE &&
      quiet.errors + writing.errors + writes.errors === 0,
    writer: {
      target_rate: WRITE_RATE,
      achieved_rate: writeRate,
      connections: WRITER_CONNECTIONS,
      requests: writes.requests,
      errors: writes.errors,
    },
  };
}

function mean(values: number[]): number {
  return values.length === 0
    ? 0
    : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
}

export function printMixedCost(cost: MixedCost | undefined): void {
  if (!cost) return;
  const { quiet, writing, writer } = cost;
  console.log();
  console.log(
    `mixed: account B's reads (${cost.reader_connections} connections, REST entries and site pages, read cache on), account A creating at ${writer.target_rate} req/s:`,
  );
  console.log(
    `  quiet:   ${quiet.requests_per_second} req/s, p50 ${quiet.latency_p50_ms} ms, p99 ${quiet.latency_p99_ms} ms, ${quiet.cpu_ms_per_request} ms CPU/request`,
  );
  console.log(
    `  writing: ${writing.requests_per_second} req/s, p50 ${writing.latency_p50_ms} ms, p99 ${writing.latency_p99_ms} ms, ${writing.cpu_ms_per_request} ms CPU/request (reads and creates)`,
  );
  console.log(
    `  ratio ${cost.ratio.toFixed(3)} (target >= ${cost.target_ratio} with A writing >= ${writer.target_rate * WRITER_SHARE} req/s: ${cost.target_met ? "met" : "not met"}); A wrote ${writer.achieved_rate} req/s` +
      `${quiet.errors + writing.errors + writer.errors ? `; errors: ${quiet.errors + writing.errors} reads, ${writer.errors} creates` : ""}`,
  );
}
