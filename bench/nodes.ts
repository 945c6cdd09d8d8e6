// `npm run bench -- --nodes N`: throughput with 1 to N server processes on one PostgreSQL database,
// behind a round-robin TCP proxy on loopback (proxy.ts), for a few workloads: a kept REST read, a kept site
// page, a REST read never asked twice (each one reaches PostgreSQL) and a REST create. The single node is
// also measured without the proxy, to show what the proxy itself costs. Server CPU is summed over the
// nodes. Printed as a table and recorded under `nodes` in bench/results.json.
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import type { BenchDatabase } from "./database.ts";
import { cpuMsOf, type Started, startProcess } from "./processes.ts";
import { printRows } from "./report.ts";
import { probe } from "./runner.ts";
import { type Seeded, seed } from "./seed.ts";
import { measure, settings, workloadNamed } from "./workloads.ts";

const WORKLOADS = ["rest_entry", "site_entry", "rest_entry_cold", "rest_create"];
/** A multiple of 1, 2, 3 and 4 nodes: each gets the same number of the proxy's connections. */
const CONNECTIONS = 12;

export interface NodesRow {
  nodes: number;
  proxy: boolean;
  workload: string;
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  errors: number;
  /** Server CPU (all nodes together) per request. */
  cpu_ms_per_request: number;
}

interface Server {
  script: string;
  nodeArgs: string[];
}

export async function nodesRun(
  server: Server,
  database: BenchDatabase,
  entries: number,
  most: number,
): Promise<NodesRow[]> {
  const nodeEnv = { ...database.env, RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0" };
  const start = (index: number) =>
    startProcess({
      script: server.script,
      env: nodeEnv,
      logFile: join(database.dataDir, `node-${index}.log`),
      nodeArgs: server.nodeArgs,
    });
  const nodes: Started[] = [await start(1)];
  const rows: NodesRow[] = [];
  try {
    const connection = { dataDir: database.dataDir, databaseUrl: database.env.DATABASE_URL };
    const opened = await openDatabase(connection);
    const seeded = await seed(opened, connection, (nodes[0] as Started).url, entries);
    await opened.db.$disconnect();
    console.log(`seeded ${entries} entries in ${seeded.seconds.toFixed(1)} s`);

    // A short round first, so that the first measured pass does not pay for the node's warming up.
    await pass(nodes, undefined, seeded, true);
    rows.push(...(await pass(nodes, undefined, seeded)));
    for (let count = 1; count <= most; count++) {
      while (nodes.length < count) nodes.push(await start(nodes.length + 1));
      const proxy = await startProcess({
        script: "bench/proxy.ts",
        env: { PROXY_BACKENDS: nodes.map((node) => new URL(node.url).port).join(",") },
        logFile: join(database.dataDir, "proxy.log"),
      });
      try {
        rows.push(...(await pass(nodes, proxy, seeded)));
      } finally {
        await proxy.stop();
      }
    }
  } finally {
    for (const node of nodes) await node.stop();
  }
  printNodesTable(rows, most);
  return rows;
}

/** Each workload once against the nodes, through the proxy when there is one. */
async function pass(
  nodes: Started[],
  proxy: Started | undefined,
  seeded: Seeded,
  warmingUp = false,
): Promise<NodesRow[]> {
  const url = proxy?.url ?? (nodes[0] as Started).url;
  const label = proxy
    ? `${nodes.length} node${nodes.length > 1 ? "s" : ""} behind the proxy`
    : "1 node, direct";
  console.log(warmingUp ? "warming up" : label);
  const rows: NodesRow[] = [];
  for (const name of WORKLOADS) {
    const workload = workloadNamed(name);
    const options = workload.request(seeded);
    await probe(url, options, name);
    const load = { connections: CONNECTIONS };
    if (workload.writes) await measure(url, options, settings.warmup, load);
    // Each node keeps its own answers: each gets the whole warm-up.
    else await measure(url, options, { amount: settings.warmupRequests * nodes.length }, load);
    const cpuOf = () => nodes.reduce((sum, node) => sum + cpuMsOf(node.child.pid ?? 0), 0);
    const cpuBefore = cpuOf();
    const result = await measure(url, options, warmingUp ? 1 : settings.duration, load);
    const total = Math.max(result.requests.total, 1);
    const row: NodesRow = {
      nodes: nodes.length,
      proxy: proxy !== undefined,
      workload: name,
      requests_per_second: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      cpu_ms_per_request: Math.round(((cpuOf() - cpuBefore) / total) * 1000) / 1000,
    };
    const flag = row.errors > 0 ? ` (${row.errors} errors or non-2xx)` : "";
    console.log(`  ${workload.title}: ${row.requests_per_second} req/s, p99 ${row.latency_p99_ms} ms${flag}`);
    rows.push(row);
  }
  return rows;
}

function printNodesTable(rows: NodesRow[], most: number): void {
  const columns = [
    { nodes: 1, proxy: false, title: "1 node, direct" },
    ...Array.from({ length: most }, (_, i) => ({
      nodes: i + 1,
      proxy: true,
      title: `${i + 1} behind proxy`,
    })),
  ];
  const table = [["workload (req/s)", ...columns.map((column) => column.title)]];
  for (const name of WORKLOADS) {
    const cells = columns.map((column) => {
      const row = rows.find(
        (r) => r.workload === name && r.nodes === column.nodes && r.proxy === column.proxy,
      );
      return row ? String(row.requests_per_second) : "";
    });
    table.push([name, ...cells]);
  }
  printRows(table);
}
