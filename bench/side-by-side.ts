// `npm run bench -- --against <git-ref>`: this checkout's build beside the ref's (other-build.ts) on one
// seeded database. Each row starts one build's server alone on the database (as one server runs; a second
// listening process would make writes wait for it on PostgreSQL), warms it up and measures, then the
// other's; which build goes first alternates from row to row, as the machine's speed drifts. A row answers
// new/old for throughput and for server CPU per request. Rows: the uncached targets' workloads with the
// read cache off (uncached.ts), kept answers with it on, and revalidations answered 304 (If-None-Match)
// when a build's answers carry an ETag; a build whose answers carry none gives no figure for that row.
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import type { BenchDatabase } from "./database.ts";
import { buildAt, thisCommit } from "./other-build.ts";
import { cpuMsOf, root, startCommandOf, startProcess, watchMemory } from "./processes.ts";
import { printRows } from "./report.ts";
import { answer, runWorkload, type Target } from "./runner.ts";
import { type Seeded, seed } from "./seed.ts";
import { uncachedTargets } from "./uncached.ts";
import {
  type Measured,
  measure,
  type RequestOptions,
  settings,
  summarize,
  workloadNamed,
} from "./workloads.ts";

interface Build {
  label: "new" | "old";
  dir: string;
  commit: string;
}

interface Row {
  name: string;
  title: string;
  readCache: boolean;
  measure: (target: Target, seeded: Seeded, title: string) => Promise<Measured | undefined>;
}

export interface ComparedRow {
  name: string;
  title: string;
  new: Measured | null;
  old: Measured | null;
  /** new/old: above 1 the new build answers more requests a second. */
  ratio_requests_per_second: number | null;
  /** new/old: below 1 the new build spends less server CPU a request. */
  ratio_cpu_ms_per_request: number | null;
}

const workloadRow = (name: string, readCache: boolean): Row => {
  const workload = workloadNamed(name);
  return {
    name: `${name}_${readCache ? "kept" : "uncached"}`,
    title: `${workload.title}, read cache ${readCache ? "on (kept answers)" : "off"}`,
    readCache,
    measure: (target, seeded, title) => runWorkload(target, { ...workload, title }, workload.request(seeded)),
  };
};

const revalidationRow = (name: string): Row => ({
  name: `${name}_304`,
  title: `${workloadNamed(name).title}, If-None-Match answered 304`,
  readCache: true,
  measure: (target, seeded, title) => revalidations(target, workloadNamed(name).request(seeded), title),
});

const uncached = Object.keys(uncachedTargets);
/** Writes last: they add entries that the reads of later rows would see. */
const rows: Row[] = [
  ...uncached.filter((name) => !workloadNamed(name).writes).map((name) => workloadRow(name, false)),
  workloadRow("rest_entry", true),
  workloadRow("site_entry", true),
  revalidationRow("rest_entry"),
  revalidationRow("site_entry"),
  ...uncached.filter((name) => workloadNamed(name).writes).map((name) => workloadRow(name, false)),
];

export async function sideBySide(ref: string, database: BenchDatabase, entries: number) {
  const other = buildAt(ref);
  const builds: Build[] = [
    { label: "new", dir: root, commit: thisCommit() },
    { label: "old", dir: other.dir, commit: other.commit },
  ];
  try {
    const seeded = await seedWith(builds[0] as Build, database, entries);
    const compared: ComparedRow[] = [];
    for (const [index, row] of rows.entries()) {
      const figures: Partial<Record<Build["label"], Measured>> = {};
      for (const build of index % 2 === 0 ? builds : [...builds].reverse())
        figures[build.label] = await measureOn(build, row, database, seeded);
      compared.push(compare(row, figures.new, figures.old));
    }
    printCompared(compared);
    return {
      against: ref,
      new_commit: builds[0]?.commit,
      old_commit: other.commit,
      seed_seconds: Math.round(seeded.seconds * 10) / 10,
      rows: compared,
    };
  } finally {
    other.remove();
  }
}

async function seedWith(build: Build, database: BenchDatabase, entries: number): Promise<Seeded> {
  const server = await start(build, database, true, "seeding");
  try {
    const connection = { dataDir: database.dataDir, databaseUrl: database.env.DATABASE_URL };
    const opened = await openDatabase(connection);
    const seeded = await seed(opened, connection, server.url, entries);
    await opened.db.$disconnect();
    console.log(`seeded ${entries} entries in ${seeded.seconds.toFixed(1)} s`);
    return seeded;
  } finally {
    await server.stop();
  }
}

function start(build: Build, database: BenchDatabase, readCache: boolean, name: string) {
  const command = startCommandOf(build.dir);
  return startProcess({
    script: command.script,
    nodeArgs: command.nodeArgs,
    cwd: build.dir,
    env: {
      ...command.env,
      ...database.env,
      RATE_LIMIT_PER_MINUTE: "0",
      ...(!readCache && { READ_CACHE_MB: "0" }),
    },
    logFile: join(database.dataDir, `${build.label}-${name}.log`),
  });
}

async function measureOn(
  build: Build,
  row: Row,
  database: BenchDatabase,
  seeded: Seeded,
): Promise<Measured | undefined> {
  const server = await start(build, database, row.readCache, row.name);
  const pid = server.child.pid ?? 0;
  const memory = watchMemory(pid);
  try {
    const measured = await row.measure(
      { url: server.url, pid, peakMb: () => memory.peakMb() },
      seeded,
      `${build.label}: ${row.title}`,
    );
    if (!measured) console.log(`  ${build.label}: ${row.title}: no ETag in the answer, no figure`);
    return measured && { ...measured, name: row.name, title: row.title };
  } finally {
    memory.stop();
    await server.stop();
  }
}

/** Requests of `options` sent again with the ETag of their answer: each should be answered 304. */
async function revalidations(
  target: Target,
  options: RequestOptions,
  title: string,
): Promise<Measured | undefined> {
  const tagged: { path: string; headers: Record<string, string> }[] = [];
  for (let count = 0; count < 100; count++) {
    const { request, status, headers, text } = await answer(target.url, options);
    if (status !== 200)
      throw new Error(`${title}: ${request.path} answered ${status}: ${text.slice(0, 500)}`);
    if (typeof headers.etag !== "string") return undefined;
    tagged.push({ path: request.path, headers: { ...request.headers, "if-none-match": headers.etag } });
  }
  let next = 0;
  const conditional: RequestOptions = {
    method: "GET",
    setupRequest: (request: any) => ({ ...request, ...tagged[next++ % tagged.length] }),
  };
  await measure(target.url, conditional, { amount: settings.warmupRequests });
  target.peakMb?.();
  const cpuBefore = cpuMsOf(target.pid);
  const result = await measure(target.url, conditional);
  const measured = summarize("", title, result, target.peakMb?.() ?? 0, cpuMsOf(target.pid) - cpuBefore);
  // Here any answer but a 304 is the wrong one.
  const wrong = result.requests.total - result["3xx"];
  console.log(
    `  ${title}: ${measured.requests_per_second} req/s, ${measured.cpu_ms_per_request} ms CPU/request${wrong ? ` (${wrong} not 304)` : ""}`,
  );
  return { ...measured, non_2xx: wrong };
}

const ratio = (over: number | undefined, under: number | undefined) =>
  over === undefined || !under ? null : Math.round((over / under) * 1000) / 1000;

function compare(row: Row, now: Measured | undefined, before: Measured | undefined): ComparedRow {
  return {
    name: row.name,
    title: row.title,
    new: now ?? null,
    old: before ?? null,
    ratio_requests_per_second: ratio(now?.requests_per_second, before?.requests_per_second),
    ratio_cpu_ms_per_request: ratio(now?.cpu_ms_per_request, before?.cpu_ms_per_request),
  };
}

function printCompared(compared: ComparedRow[]): void {
  const figure = (value: number | null | undefined, digits = 0) =>
    value === null || value === undefined ? "-" : value.toFixed(digits);
  const errors = (row: ComparedRow) =>
    String([row.new, row.old].reduce((sum, side) => sum + (side ? side.errors + side.non_2xx : 0), 0));
  console.log();
  printRows([
    [
      "workload",
      "new req/s",
      "old req/s",
      "new/old req/s",
      "new CPU ms",
      "old CPU ms",
      "new/old CPU",
      "errors",
    ],
    ...compared.map((row) => [
      row.title,
      figure(row.new?.requests_per_second),
      figure(row.old?.requests_per_second),
      figure(row.ratio_requests_per_second, 3),
      figure(row.new?.cpu_ms_per_request, 3),
      figure(row.old?.cpu_ms_per_request, 3),
      figure(row.ratio_cpu_ms_per_request, 3),
      errors(row),
    ]),
  ]);
}
