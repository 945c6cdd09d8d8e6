// `npm run bench [-- --pg] [-- --entries N] [-- --only a,b] [-- --profile]`: starts the real server on a
// fresh database, seeds it (seed.ts), measures each workload (workloads.ts) and the bare baseline
// (baseline.ts), then what recording revisions costs the writes (revisions.ts; `--only revisions` for that
// alone) and how fast a site of N entries imports (import.ts; `--only import` for that alone), prints a
// table and records the run in bench/results.json under its database.
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { freshDatabase } from "./database.ts";
import { type ImportCost, importCost } from "./import.ts";
import { cpuMsOf, memoryOf, root, startProcess, watchMemory } from "./processes.ts";
import { printTable } from "./report.ts";
import { printRevisionsCost, revisionsCost } from "./revisions.ts";
import { seed } from "./seed.ts";
import {
  entryRead,
  type Measured,
  measure,
  type RequestOptions,
  settings,
  summarize,
  workloads,
} from "./workloads.ts";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean" },
    entries: { type: "string" },
    only: { type: "string" },
    profile: { type: "boolean" },
    "no-write": { type: "boolean" },
  },
});
const total = Number(values.entries ?? 100_000);
const only = values.only?.split(",");

// `--only import`: the site import alone (import.ts), in-process on a fresh database, recorded beside the
// last full run of that database.
if (only?.length === 1 && only[0] === "import") {
  const { provider, cost } = await importOnFreshDatabase();
  if (!values["no-write"]) saveImport(provider, cost);
  process.exit(0);
}

// The server runs as `npm start` runs it: the built bundle (scripts/build.mjs), with its Node flags.
execSync("node scripts/build.mjs", { cwd: root, stdio: "inherit" });
const startCommand = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start as string;
const [, ...startArgs] = startCommand.split(" ");
const serverScript = startArgs.pop() as string;
const database = await freshDatabase(values.pg ?? false);
console.log(`bench: ${database.provider}, ${total} entries, data in ${database.dataDir}`);
const server = await startProcess({
  script: serverScript,
  env: { ...database.env, RATE_LIMIT_PER_MINUTE: "0" },
  logFile: join(database.dataDir, "server.log"),
  nodeArgs: [
    ...startArgs,
    ...(values.profile ? ["--cpu-prof", `--cpu-prof-dir=${join(database.dataDir, "profiles")}`] : []),
  ],
});
const serverPid = server.child.pid ?? 0;
const memory = watchMemory(serverPid);

try {
  const connection = { dataDir: database.dataDir, databaseUrl: database.env.DATABASE_URL };
  const opened = await openDatabase(connection);
  const seeded = await seed(opened, connection, server.url, total);
  await opened.db.$disconnect();
  console.log(`seeded ${total} entries in ${seeded.seconds.toFixed(1)} s`);

  const baseline = await startProcess({
    script: "bench/baseline.ts",
    env: { BASELINE_DATABASE: database.url },
    logFile: join(database.dataDir, "baseline.log"),
  });
  const baselineMemory = watchMemory(baseline.child.pid ?? 0);
  const baselineRun = await run(
    baseline.url,
    "baseline",
    "Baseline: node:http + one SQL query",
    { method: "GET", setupRequest: entryRead(seeded) },
    baseline.child.pid ?? 0,
  );
  const baselineResult = { ...baselineRun.measured, peak_rss_mb: Math.round(baselineMemory.peakMb()) };
  baselineMemory.stop();
  await baseline.stop();

  memory.peakMb();
  const results: (Measured & { ratio_to_baseline: number })[] = [];
  for (const workload of workloads) {
    if (only && !only.includes(workload.name)) continue;
    const { measured } = await run(
      server.url,
      workload.name,
      workload.title,
      workload.request(seeded),
      serverPid,
      () => memory.peakMb(),
      workload.writes,
    );
    const ratio = measured.requests_per_second / Math.max(baselineResult.requests_per_second, 1);
    results.push({ ...measured, ratio_to_baseline: Math.round(ratio * 1000) / 1000 });
  }
  const writes = workloads.filter(
    (workload) => workload.writes && (!only || only.includes(workload.name) || only.includes("revisions")),
  );
  const revisions =
    writes.length === 0
      ? []
      : await revisionsCost(
          { url: server.url, pid: serverPid },
          { script: serverScript, nodeArgs: startArgs },
          database,
          seeded,
          writes,
        );
  const serverPeak = Math.round(memoryOf(serverPid)?.peakMb ?? 0);
  const imported = !only || only.includes("import") ? (await importOnFreshDatabase()).cost : undefined;
  const record = {
    measured_at: new Date().toISOString(),
    database: database.provider,
    machine: machine(),
    entries: total,
    seed_seconds: Math.round(seeded.seconds * 10) / 10,
    settings,
    server_peak_rss_mb: serverPeak,
    baseline: baselineResult,
    workloads: results,
    revisions,
    ...(imported && { import: imported }),
  };
  printTable(record);
  printRevisionsCost(revisions);
  if (!values["no-write"] && !only) save(record);
  if (!values["no-write"] && only?.length === 1 && only[0] === "revisions")
    saveRevisions(database.provider, revisions);
} finally {
  memory.stop();
  await server.stop();
  if (!values.profile) await database.drop();
  else console.log(`CPU profile of the server in ${join(database.dataDir, "profiles")}`);
}

/** Checks one request answers 2xx, warms up, then measures. */
async function run(
  url: string,
  name: string,
  title: string,
  options: RequestOptions,
  pid: number,
  peakMb: () => number = () => 0,
  writes = false,
): Promise<{ measured: Measured }> {
  await probe(url, options, name);
  if (writes) await measure(url, options, settings.warmup);
  else if (settings.warmupRequests > 0) await measure(url, options, { amount: settings.warmupRequests });
  peakMb();
  const cpuBefore = cpuMsOf(pid);
  const result = await measure(url, options);
  const measured = summarize(name, title, result, peakMb(), cpuMsOf(pid) - cpuBefore);
  const flag =
    measured.errors + measured.non_2xx > 0 ? ` (${measured.errors} errors, ${measured.non_2xx} non-2xx)` : "";
  console.log(
    `  ${title}: ${measured.requests_per_second} req/s, p99 ${measured.latency_p99_ms} ms, ${measured.cpu_ms_per_request} ms CPU/request${flag}`,
  );
  return { measured };
}

/** One request as the workload sends it; a non-2xx answer stops the bench with the body. */
function probe(url: string, options: RequestOptions, name: string): Promise<void> {
  const { setupRequest, ...base } = options;
  const request = setupRequest ? setupRequest({ ...base }, {}) : base;
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: request.path ?? "/",
        method: request.method,
        headers: request.headers,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else
            reject(
              new Error(
                `${name}: ${request.method} ${request.path} answered ${status}: ${text.slice(0, 500)}`,
              ),
            );
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

function machine() {
  let model = cpus()[0]?.model ?? "unknown";
  try {
    model = /Model name:\s*(.+)/.exec(execSync("lscpu", { encoding: "utf8" }))?.[1]?.trim() ?? model;
  } catch {}
  return { cpu: model, cores: cpus().length, node: process.version, platform: process.platform };
}

function save(record: { database: string }): void {
  const file = join(root, "bench", "results.json");
  const all = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  all[record.database] = record;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`wrote bench/results.json (${record.database})`);
}

/** The site import of `total` entries into a fresh database of the same kind, in this process. */
async function importOnFreshDatabase(): Promise<{ provider: string; cost: ImportCost }> {
  const fresh = await freshDatabase(values.pg ?? false);
  try {
    const connection = { dataDir: fresh.dataDir, databaseUrl: fresh.env.DATABASE_URL };
    // Revisions recorded as the server records them (its connection's triggers: src/db/entry-revisions.ts).
    const opened = await openDatabase(connection, { recordRevisions: true });
    await migrate(opened);
    const cost = await importCost(opened, fresh.dataDir, total);
    await opened.db.$disconnect();
    console.log(
      `  site import: ${cost.entries} entries (${cost.document_mb} MB of YAML) in ${cost.seconds} s: ${cost.entries_per_second} entries/s, ${cost.cpu_seconds} s CPU, peak RSS ${cost.peak_rss_mb} MB`,
    );
    return { provider: fresh.provider, cost };
  } finally {
    await fresh.drop();
  }
}

/** The import's figures, under `import` in the database's record (the last full run's stay as they were). */
function saveImport(database: string, cost: ImportCost): void {
  const file = join(root, "bench", "results.json");
  const all = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)
    : {};
  all[database] = {
    ...all[database],
    import: { measured_at: new Date().toISOString(), machine: machine(), ...cost },
  };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`wrote bench/results.json (${database}, import)`);
}

/**
 * `--only revisions`: the on/off comparison under `revisions` in the database's record, with when and on
 * how many entries it ran (`revisions_run`); the last full run's other figures stay as they were.
 */
function saveRevisions(database: string, costs: unknown[]): void {
  const file = join(root, "bench", "results.json");
  const all = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)
    : {};
  const run = { measured_at: new Date().toISOString(), machine: machine(), entries: total };
  all[database] = { ...all[database], revisions: costs, revisions_run: run };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`wrote bench/results.json (${database}, revisions)`);
}
