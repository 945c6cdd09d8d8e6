// Starting the processes under test (the CMS server, the baseline) and watching their memory.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const root = new URL("..", import.meta.url).pathname;

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs `node [nodeArgs] <script>` (with `--import tsx` for TypeScript) with its output in `logFile` (a request log line per
 * request would otherwise cost the bench process CPU), and waits until it answers `readyPath`.
 */
export async function startProcess(options: {
  script: string;
  env: Record<string, string>;
  logFile: string;
  nodeArgs?: string[];
  readyPath?: string;
  /** The checkout the script belongs to (another build's: side-by-side.ts); this one's by default. */
  cwd?: string;
}): Promise<Started> {
  const port = await freePort();
  const log = openSync(options.logFile, "a");
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PORT: String(port), HOST: "127.0.0.1" };
  delete env.NODE_OPTIONS;
  const loader = options.script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script], {
    cwd: options.cwd ?? root,
    env,
    stdio: ["ignore", log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.script} exited:\n${tail(options.logFile)}`);
    if (Date.now() > deadline) throw new Error(`${options.script} did not start:\n${tail(options.logFile)}`);
    try {
      const response = await fetch(`${url}${options.readyPath ?? "/healthz"}`);
      if (response.ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, stop: () => stopProcess(child) };
}

/**
 * How `npm start` runs the server of the checkout in `dir`: its environment assignments, Node flags and
 * script (relative to `dir`), from package.json's `start`.
 */
export function startCommandOf(dir: string): {
  env: Record<string, string>;
  nodeArgs: string[];
  script: string;
} {
  const command = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.start as string;
  const words = command.split(" ");
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const assignment = words.shift() as string;
    const at = assignment.indexOf("=");
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  const [, ...nodeArgs] = words;
  const script = nodeArgs.pop() as string;
  return { env, nodeArgs, script };
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "";
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
  });
}

/** Memory of a process, from /proc (Linux): current and peak resident set size, in MB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = readFileSync(join("/proc", String(pid), "status"), "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/**
 * CPU time a process has used so far (user + system), in ms, from /proc/<pid>/stat. Per request it is a
 * steadier measure than req/s on a machine shared with other work.
 */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(join("/proc", String(pid), "stat"), "utf8");
    // Fields after the parenthesized command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; `peakMb` reports the highest since its last call. */
export function watchMemory(pid: number, everyMs = 100) {
  let highest = 0;
  const sample = () => {
    const memory = memoryOf(pid);
    if (memory) highest = Math.max(highest, memory.rssMb);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    /** The peak so far, in MB, and starts a new window. */
    peakMb(): number {
      sample();
      const peak = highest;
      highest = memoryOf(pid)?.rssMb ?? 0;
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
