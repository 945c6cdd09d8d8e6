// The import's YAML is read in a worker thread (parse-worker.ts), never on the event loop that answers
// every tenant's requests: how long reading takes is the sender's choice (a mapping of 50,000 keys held
// the loop for 43 s and more). Each task has a worker of its own, with a memory limit (resourceLimits)
// and a time limit (limits.ts `parseLimits`, both by the document's size), and the request's deadline:
// past either the worker is ended at once. Past its own limits the document is refused as too complex
// (422), never with a 500; past the request's deadline the request answers as any late one (503).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type Deadline, DeadlinePassedError } from "../../db/deadline.ts";
import { ApiError } from "../errors.ts";
import { type ParseLimits, parseLimits } from "./limits.ts";
import type { ParseResult, ParseTask } from "./parse-worker.ts";
import type { ImportProblems, Locate } from "./problems.ts";

/** How often the request's deadline is looked at while a worker runs. */
const DEADLINE_CHECK_MS = 50;

/** The document's plain values, or undefined with its problems added (each with its line). */
export async function readInWorker(
  text: string,
  problems: ImportProblems,
  options: { operator: boolean; deadline?: Deadline },
): Promise<{ data: unknown } | undefined> {
  const result = await perform({ kind: "read", text }, limitsFor(text, options.operator), options.deadline);
  if (result.kind === "read") return { data: result.data };
  if (result.kind === "refused") problems.adopt(result.problems, result.unlisted);
  return undefined;
}

/** Finds the lines of problems in the document, in a worker too (`yaml` parses it again for them). */
export function locateInWorker(text: string, options: { operator: boolean; deadline?: Deadline }): Locate {
  return async (paths) => {
    const result = await perform(
      { kind: "lines", text, paths },
      limitsFor(text, options.operator),
      options.deadline,
    ).catch((error: unknown) => {
      // Lines are a courtesy: a document too complex to parse for them is refused without them.
      if (error instanceof ApiError && error.status === 422) return undefined;
      throw error;
    });
    return result?.kind === "lines" ? result.lines : paths.map(() => undefined);
  };
}

function limitsFor(text: string, operator: boolean): ParseLimits {
  return parseLimits(Buffer.byteLength(text), operator);
}

function perform(task: ParseTask, limits: ParseLimits, deadline?: Deadline): Promise<ParseResult> {
  const script = workerScript();
  const worker = new Worker(script.code ?? script.file, {
    eval: script.code !== undefined,
    // The main thread's stack (about 1 MB), not a worker's 4: a document nesting past what `yaml` can
    // follow is then refused as it was, in the nesting rule's words (document.ts).
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, stackSizeMb: 1 },
    stdout: false,
    stderr: false,
  });
  return new Promise<ParseResult>((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (deadline?.refuses()) finish(() => reject(new DeadlinePassedError()));
      else if (Date.now() - started > limits.ms) finish(() => reject(tooComplex(limits)));
    }, DEADLINE_CHECK_MS);
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      void worker.terminate();
      settle();
    };
    worker.once("message", (result: ParseResult) => finish(() => resolve(result)));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooComplex(limits) : error)),
    );
    worker.once("exit", (code) =>
      finish(() => reject(new Error(`the import's reading worker stopped (exit code ${code})`))),
    );
    worker.postMessage(task);
  });
}

function tooComplex(limits: ParseLimits): ApiError {
  return new ApiError(422, "Import refused: nothing was written", [
    {
      path: "document",
      message: `is too complex to read within the import's limits (${Math.round(limits.ms / 1000)} s and ${limits.memoryMb} MB for a document of its size): write large mappings and lists in block style, without aliases to them`,
    },
  ]);
}

const here = fileURLToPath(import.meta.url);

/**
 * The worker: the built server's `import-worker.mjs` (scripts/build.mjs), beside the entry whose code
 * this is or above the chunk holding it; in the sources, parse-worker.ts loaded through tsx's loader,
 * registered in the worker itself (a worker does not inherit its parent's loader hooks).
 */
function workerScript(): { file: string; code?: string } {
  if (here.endsWith(".ts")) {
    // tsx's ESM API, as an ES module (require.resolve finds its CommonJS twin beside it).
    const api = join(dirname(createRequire(import.meta.url).resolve("tsx/esm/api")), "index.mjs");
    const file = pathToFileURL(join(dirname(here), "parse-worker.ts")).href;
    const code = `import(${JSON.stringify(pathToFileURL(api).href)}).then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
    return { file, code };
  }
  for (const dir of [dirname(here), dirname(dirname(here))]) {
    const file = join(dir, "import-worker.mjs");
    if (existsSync(file)) return { file };
  }
  throw new Error(`import-worker.mjs is not beside the built server (${dirname(here)})`);
}
