// `npm run bench [-- --pg] [-- --entries N] [-- --only a,b] [-- --profile]`: starts the real server on a
// fresh database, seeds it (seed.ts), measures each workload (workloads.ts) and the bare baseline
// (baseline.ts), then the same reads and creates with the read cache off (uncached.ts), one tenant's reads
// while another writes (mixed.ts), what recording revisions costs the writes (revisions.ts) and how fast a
// site of N entries imports (import.ts); `--only uncached`, `--only mixed`, `--only revisions` or
// `--only import` runs one of those alone. Prints the tables and records the run in bench/results.json under
// its database. `--against <git-ref>` compares this build with the ref's instead (side-by-side.ts).
import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { freshDatabase } from "./database.ts";
import { type ImportCost, importCost } from "./import.ts";
import { mixedCost, printMixedCost, tenantB } from "./mixed.ts";
import { nodesRun } from "./nodes.ts";
import { memoryOf, root, startCommandOf, startProcess, watchMemory } from "./processes.ts";
import { printTable, printTargetRows } from "./report.ts";
import { printRevisionsCost, revisionsCost } from "./revisions.ts";
import { runWorkload } from "./runner.ts";
import { seed } from "./seed.ts";
import { sideBySide } from "./side-by-side.ts";
import { uncachedPass } from "./uncached.ts";
import { entryRead, type Measured, settings, workloads } from "./workloads.ts";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean" },
    entries: { type: "string" },
    only: { type: "string" },
    profile: { type: "boolean" },
    "no-write": { type: "boolean" },
    nodes: { type: "string" },
    against: { type: "string" },
  },
});
const total = Number(values.entries ?? 100_000);
const only = values.only?.split(",");
/** Passes that `--only` runs alone and records beside the last full run, each with its own `<pass>_run`. */
const passes = ["revisions", "uncached", "mixed"];
const wants = (pass: string) => !only || only.includes(pass);

// `--only import`: the site import alone (import.ts), in-process on a fresh database, recorded beside the
// last full run of that database.
if (only?.length === 1 && only[0] === "import") {
  const { provider, cost } = await importOnFreshDatabase();
  if (!values["no-write"]) saveImport(provider, cost);
  process.exit(0);
}

// The server runs as `npm start` runs it: the built bundle (scripts/build.mjs), with its environment
// (`NODE_ENV=production`) and Node flags. Every server here inherits this process's environment.
execSync("node scripts/build.mjs", { cwd: root, stdio: "inherit" });
const { env: startEnv, nodeArgs: startArgs, script: serverScript } = startCommandOf(root);
Object.assign(process.env, startEnv);

// `--nodes N`: 1 to N server processes behind a round-robin proxy (nodes.ts), on PostgreSQL (several
// processes need it), on a smaller seed unless --entries says otherwise; recorded under `nodes`.
if (values.nodes !== undefined) {
  const most = Number(values.nodes);
  if (!Number.isInteger(most) || most < 1 || most > 8)
    throw new Error("--nodes must be a whole number from 1 to 8");
  const entries = Number(values.entries ?? 20_000);
  const scaling = await freshDatabase(true);
  console.log(`bench: ${most} nodes at most, postgresql, ${entries} entries, data in ${scaling.dataDir}`);
  try {
    const rows = await nodesRun({ script: serverScript, nodeArgs: startArgs }, scaling, entries, most);
    if (!values["no-write"])
      saveSection("nodes", {
        measured_at: new Date().toISOString(),
        machine: machine(),
        entries,
        duration_s: settings.duration,
        rows,
      });
  } finally {
    await scaling.drop();
  }
  process.exit(0);
}
// `--against <git-ref>`: this build beside the ref's, workload by workload on one database (side-by-side.ts),
// on a smaller seed unless --entries says otherwise; recorded under `side_by_side`, per database.
if (values.against !== undefined) {
  const entries = Number(values.entries ?? 10_000);
  const shared = await freshDatabase(values.pg ?? false);
  console.log(`bench: this build against ${values.against}, ${shared.provider}, ${entries} entries`);
  try {
    const run = await sideBySide(values.against, shared, entries);
    if (!values["no-write"]) {
      const recorded = (readResults().side_by_side ?? {}) as Record<string, unknown>;
      saveSection("side_by_side", {
        ...recorded,
        [shared.provider]: {
          measured_at: new Date().toISOString(),
          machine: machine(),
          entries,
          settings,
          ...run,
        },
      });
    }
  } finally {
    await shared.drop();
  }
  process.exit(0);
}
const database = await freshDatabase(values.pg ?? false);
console.log(`bench: ${database.provider}, ${total} entries, data in ${database.dataDir}`);
// `--profile`: each server (this one, and the twins of the passes) writes its CPU profile there.
const profileArgs = values.profile
  ? ["--cpu-prof", `--cpu-prof-dir=${join(database.dataDir, "profiles")}`]
  : [];
const server = await startProcess({
  script: serverScript,
  env: { ...database.env, RATE_LIMIT_PER_MINUTE: "0" },
  logFile: join(database.dataDir, "server.log"),
  nodeArgs: [...startArgs, ...profileArgs],
});
const serverPid = server.child.pid ?? 0;
const memory = watchMemory(serverPid);

try {
  const connection = { dataDir: database.dataDir, databaseUrl: database.env.DATABASE_URL };
  const opened = await openDatabase(connection);
  const seeded = await seed(opened, connection, server.url, total);
  console.log(`seeded ${total} entries in ${seeded.seconds.toFixed(1)} s`);
  const seededB = wants("mixed")
    ? await seed(opened, connection, server.url, tenantB.entries, tenantB)
    : undefined;
  await opened.db.$disconnect();

  const baseline = await startProcess({
    script: "bench/baseline.ts",
    env: { BASELINE_DATABASE: database.url },
    logFile: join(database.dataDir, "baseline.log"),
  });
  const baselineMemory = watchMemory(baseline.child.pid ?? 0);
  const baselineRun = await runWorkload(
    { url: baseline.url, pid: baseline.child.pid ?? 0 },
    { name: "baseline", title: "Baseline: node:http + one SQL query" },
    { method: "GET", setupRequest: entryRead(seeded) },
  );
  const baselineResult = { ...baselineRun, peak_rss_mb: Math.round(baselineMemory.peakMb()) };
  baselineMemory.stop();
  await baseline.stop();

  memory.peakMb();
  const results: (Measured & { ratio_to_baseline: number })[] = [];
  for (const workload of workloads) {
    if (only && !only.includes(workload.name)) continue;
    const measured = await runWorkload(
      { url: server.url, pid: serverPid, peakMb: () => memory.peakMb() },
      workload,
      workload.request(seeded),
    );
    const ratio = measured.requests_per_second / Math.max(baselineResult.requests_per_second, 1);
    results.push({ ...measured, ratio_to_baseline: Math.round(ratio * 1000) / 1000 });
  }
  const mixed = seededB && (await mixedCost({ url: server.url, pid: serverPid }, seeded, seededB));
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
  // The twin with its read cache off runs alone on the database, as one server does: on PostgreSQL a second
  // listening process makes each of its writes wait for that process's answer (docs/deployment.md,
  // "Consistency between processes"), which is the cost of several nodes, not of the engine.
  memory.stop();
  await server.stop();
  const uncached = wants("uncached")
    ? await uncachedPass(
        { script: serverScript, nodeArgs: [...startArgs, ...profileArgs] },
        database,
        seeded,
        baselineResult.requests_per_second,
      )
    : [];
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
    uncached,
    ...(mixed && { mixed }),
    revisions,
    ...(imported && { import: imported }),
  };
  printTable(record);
  const slack = database.provider === "postgresql" ? " (targets: the embedded database's ÷ 1.5)" : "";
  printTargetRows(`read cache off (READ_CACHE_MB=0), the uncached targets${slack}:`, uncached);
  printMixedCost(mixed);
  printRevisionsCost(revisions);
  if (!values["no-write"] && !only) save(record);
  if (!values["no-write"] && only?.every((name) => passes.includes(name)))
    savePasses(database.provider, { revisions, uncached, mixed }, only);
} finally {
  memory.stop();
  await server.stop();
  if (!values.profile) await database.drop();
  else console.log(`CPU profile of the server in ${join(database.dataDir, "profiles")}`);
}

function machine() {
  let model = cpus()[0]?.model ?? "unknown";
  try {
    model = /Model name:\s*(.+)/.exec(execSync("lscpu", { encoding: "utf8" }))?.[1]?.trim() ?? model;
  } catch {}
  return { cpu: model, cores: cpus().length, node: process.version, platform: process.platform };
}

function save(record: { database: string }): void {
  saveSection(record.database, record);
}

function readResults(): Record<string, unknown> {
  const file = join(root, "bench", "results.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
}

/** A section of bench/results.json beside the databases' (the last run's replaces it). */
function saveSection(name: string, section: unknown): void {
  const file = join(root, "bench", "results.json");
  const all = readResults();
  all[name] = section;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`wrote bench/results.json (${name})`);
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
 * `--only revisions,uncached,mixed` (any of them): each pass's figures under its name in the database's
 * record, with when and on how many entries it ran (`revisions_run`, …); the last full run's other figures
 * stay as they were.
 */
function savePasses(database: string, figures: Record<string, unknown>, names: string[]): void {
  const file = join(root, "bench", "results.json");
  const all = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>)
    : {};
  const run = { measured_at: new Date().toISOString(), machine: machine(), entries: total };
  const record = { ...all[database] };
  for (const name of names) Object.assign(record, { [name]: figures[name], [`${name}_run`]: run });
  all[database] = record;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`wrote bench/results.json (${database}, ${names.join(", ")})`);
}
