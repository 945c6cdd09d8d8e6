// `npx tsx bench/ratios.ts`: the table of docs/performance.md, "Latest numbers", from bench/results.json:
// each workload's req/s as a ratio to the bare baseline of its own run, with its server CPU ms per request,
// on both databases, the settings of the runs they come from, and the ratios of the passes beside them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./processes.ts";
import { printRows } from "./report.ts";

interface Row {
  name: string;
  title: string;
  ratio_to_baseline: number;
  cpu_ms_per_request: number;
}

interface Run {
  entries: number;
  machine: { cpu: string; cores: number; node: string };
  settings: { connections: number; duration: number; warmupRequests: number };
  baseline: { requests_per_second: number; cpu_ms_per_request: number };
  workloads: Row[];
  uncached: Row[];
  mixed?: { ratio: number; writer: { achieved_rate: number } };
  revisions?: { name: string; ratio: number }[];
  import?: { entries_per_second: number; seconds: number };
}

const all = JSON.parse(readFileSync(join(root, "bench", "results.json"), "utf8")) as Record<string, Run>;
const label = (run: string) => (run === "sqlite" ? "SQLite" : "PostgreSQL");
const runs = (["sqlite", "postgresql"] as const).filter((name) => all[name]);

for (const name of runs) {
  const { entries, machine, settings, baseline } = all[name] as Run;
  console.log(
    `${name}: ${entries} entries, ${settings.connections} connections, ${settings.duration} s a workload after ` +
      `${settings.warmupRequests} warm-up requests; ${machine.cores} cores (${machine.cpu}), Node ${machine.node}; ` +
      `baseline ${baseline.requests_per_second} req/s at ${baseline.cpu_ms_per_request} ms CPU`,
  );
}
console.log();
const rowsOf = (run: string): Row[] => [...(all[run]?.workloads ?? []), ...(all[run]?.uncached ?? [])];
const first = new Map<string, Row>();
for (const row of runs.flatMap(rowsOf)) if (!first.has(row.name)) first.set(row.name, row);
const cell = (run: string, name: string) => {
  const row = rowsOf(run).find((candidate) => candidate.name === name);
  return row ? `${row.ratio_to_baseline.toFixed(2)}x (${row.cpu_ms_per_request.toFixed(2)})` : "";
};
printRows([
  ["workload", ...runs.map((run) => `${label(run)} (CPU ms)`)],
  ...[...first.values()].map((row) => [`\`${row.name}\``, ...runs.map((run) => cell(run, row.name))]),
]);
console.log();
for (const run of runs) {
  const { mixed, revisions = [], import: imported } = all[run] as Run;
  const parts = [
    mixed && `mixed ${mixed.ratio.toFixed(2)} (A at ${mixed.writer.achieved_rate}/s)`,
    ...revisions.map((cost) => `revisions ${cost.name} ${cost.ratio.toFixed(2)}`),
    imported && `import ${imported.entries_per_second} entries/s (${imported.seconds} s)`,
  ];
  console.log(`${label(run)}: ${parts.filter(Boolean).join(", ")}`);
}
