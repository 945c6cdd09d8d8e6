// The worker thread that reads an import's YAML (document.ts): started by read-in-worker.ts, one per
// task, with its own memory limit, and ended by its parent past its time. Its tasks: the document's
// plain values (or the problems that refuse it, with their lines), and the lines of paths in it.
import { parentPort } from "node:worker_threads";
import { linesAt, type Path, readDocument } from "./document.ts";
import { ImportProblems } from "./problems.ts";

export type ParseTask = { kind: "read"; text: string } | { kind: "lines"; text: string; paths: Path[] };

export type ParseResult =
  | { kind: "read"; data: unknown }
  | { kind: "refused"; problems: ImportProblems["list"]; unlisted: number }
  | { kind: "lines"; lines: (number | undefined)[] };

function perform(task: ParseTask): ParseResult {
  if (task.kind === "lines") return { kind: "lines", lines: linesAt(task.text, task.paths) };
  const problems = new ImportProblems();
  const read = readDocument(task.text, problems);
  if (read) return { kind: "read", data: read.data };
  return { kind: "refused", problems: problems.list, unlisted: problems.unlistedCount };
}

parentPort?.once("message", (task: ParseTask) => {
  parentPort?.postMessage(perform(task));
});
