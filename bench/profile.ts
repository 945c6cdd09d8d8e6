// Summarizes a V8 CPU profile (`npm run bench -- --profile` writes the server's): the functions with the
// most self time, and self time by package, so a missed target can be explained.
//   npx tsx bench/profile.ts <file.cpuprofile> [top] [last-seconds]
// With last-seconds, only the samples of the profile's last seconds count (the workload, not start-up
// and seeding). The server is a bundle (scripts/build.mjs): each frame is named by its place in the sources,
// found through the bundle's source map.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

const [file, topArg, lastArg] = process.argv.slice(2);
if (!file) throw new Error("usage: bench/profile.ts <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const top = Number(topArg ?? 25);

/** The source maps of the bundle's files, by URL; null where a file has none. */
const sourceMaps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
  if (!sourceMaps.has(url)) {
    const map = url.startsWith("file:") ? `${fileURLToPath(url)}.map` : "";
    sourceMaps.set(url, existsSync(map) ? new SourceMap(JSON.parse(readFileSync(map, "utf8"))) : null);
  }
  return sourceMaps.get(url) ?? null;
}
// A frame in the bundle gets the URL and line of the source it was built from. findEntry answers the
// nearest mapping before the place: one on an earlier line belongs to other code (esbuild's wrapper of a
// CommonJS module has none of its own), and the frame keeps the bundle's name.
for (const { callFrame } of profile.nodes) {
  const entry = sourceMapOf(callFrame.url)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  if (!entry || !("originalSource" in entry) || entry.generatedLine !== callFrame.lineNumber) continue;
  callFrame.url = new URL(entry.originalSource, callFrame.url).href;
  callFrame.lineNumber = entry.originalLine;
}

const elapsed: number[] = [];
profile.timeDeltas.reduce((sum, delta, index) => (elapsed[index] = sum + delta), 0);
const from = (elapsed.at(-1) ?? 0) - (lastArg ? Number(lastArg) * 1e6 : Number.POSITIVE_INFINITY);
const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => {
  if ((elapsed[index] ?? 0) < from) return;
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
});
const totalMs = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);

const where = (url: string) => {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (dependency) return dependency;
  if (url.includes("/src/")) return `src/${url.split("/src/")[1]?.split("/")[0] ?? ""}`;
  return url.startsWith("node:") ? "node" : url || "(native)";
};

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const ms = selfMs.get(node.id) ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/src\//, "src/")}:${lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  byPackage.set(where(url), (byPackage.get(where(url)) ?? 0) + ms);
}

const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}`,
    );
  }
};
// Inclusive time: a node's self time plus its descendants', counted once per function on a stack.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const inclusive = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (!frame?.url) continue;
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/src\//, "src/")}:${frame.lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
  }
}

console.log(`${totalMs.toFixed(0)} ms sampled`);
print("self time by package", byPackage);
print("self time by function", byFunction);
print("total time (self and callees) by function", inclusive);
