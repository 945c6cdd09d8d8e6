// The tables printed at the end of a run.
import type { Measured } from "./workloads.ts";

interface Record {
  database: string;
  machine: { cpu: string; cores: number; node: string };
  entries: number;
  seed_seconds: number;
  server_peak_rss_mb: number;
  baseline: Measured;
  workloads: (Measured & { ratio_to_baseline: number })[];
}

type Row = Measured & { ratio_to_baseline: number };

const columns = [
  "workload",
  "req/s",
  "p50 ms",
  "p99 ms",
  "CPU ms/req",
  "peak RSS MB",
  "vs baseline",
  "errors",
];

function cells(row: Row): string[] {
  return [
    row.title,
    String(row.requests_per_second),
    String(row.latency_p50_ms),
    String(row.latency_p99_ms),
    row.cpu_ms_per_request.toFixed(2),
    String(row.peak_rss_mb),
    `${row.ratio_to_baseline.toFixed(2)}x`,
    String(row.errors + row.non_2xx),
  ];
}

export function printTable(record: Record): void {
  console.log();
  console.log(
    `${record.database}, ${record.entries} entries (seeded in ${record.seed_seconds} s); ${record.machine.cores} cores, ${record.machine.cpu}, Node ${record.machine.node}`,
  );
  printRows([columns, ...[{ ...record.baseline, ratio_to_baseline: 1 }, ...record.workloads].map(cells)]);
  console.log(`server peak RSS (VmHWM): ${record.server_peak_rss_mb} MB`);
}

/** Rows measured against a server with its read cache off, each beside its target. */
export function printTargetRows(
  heading: string,
  rows: (Row & { target_requests_per_second: number; target_met: boolean })[],
): void {
  if (rows.length === 0) return;
  console.log();
  console.log(heading);
  printRows([
    [...columns, "target req/s", "met"],
    ...rows.map((row) => [
      ...cells(row),
      `>= ${Math.round(row.target_requests_per_second)}`,
      row.target_met ? "met" : "not met",
    ]),
  ]);
}

/** A Markdown table: the first row is the header, columns after the first are right-aligned. */
export function printRows(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(" | ")} |`;
  console.log(line(rows[0] ?? []));
  console.log(
    `|${widths.map((width, column) => (column === 0 ? "-".repeat(width + 2) : `${"-".repeat(width + 1)}:`)).join("|")}|`,
  );
  for (const row of rows.slice(1)) console.log(line(row));
}
