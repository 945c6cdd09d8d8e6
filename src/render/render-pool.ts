// Site pages render in a pool of worker threads (render-worker.ts), one per core: a template that runs
// away holds a worker, never the event loop that answers every other request, and a page's time limit
// holds however its time is spent and however many such pages run at once. A worker renders many pages
// at once, interleaved (render-guard.ts gives each its turns and stops it at its deadline). The schema
// stays on this thread: a worker asks here for the entry lists the `query` and `paginate` tags read.
// A worker that has not answered a page by the page's deadline and a grace is stuck in one long step:
// it is stopped and replaced; the pages it held past their deadline fail with the time limit, the others
// are rendered again by the pool within what is left of their time.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { RenderLimitError } from "./render-guard.ts";
import type { FromWorker, ToWorker } from "./render-messages.ts";
import { RENDER_LIMIT_MS } from "./render-scope.ts";
import type { EntryList, EntryListArgs } from "./site-data.ts";
import type { SiteRenderJob, SiteRenderResult } from "./site-render.ts";

/** How long past a page's deadline its worker may take to answer before it is taken as stuck. */
const GRACE_MS = 150;
/** How many times a page is sent again after its worker stopped (or failed) before the page fails. */
const MAX_ATTEMPTS = 3;
/** A worker's heap: past it, the worker alone stops (its pages fail or go to another), not the process. */
const WORKER_HEAP_MB = 1024;

interface Render {
  id: number;
  job: Omit<SiteRenderJob, "remainingMs">;
  /** performance.now() past which the page has used its time. */
  deadline: number;
  entries(args: EntryListArgs): Promise<EntryList | null>;
  /** What a list read failed with: the render's failure is that one (the schema's status kept). */
  entriesError?: unknown;
  attempts: number;
  worker?: RenderWorker;
  timer?: NodeJS.Timeout;
  resolve(result: SiteRenderResult): void;
  reject(error: unknown): void;
}

interface RenderWorker {
  thread: Worker;
  renders: Set<Render>;
}

const renders = new Map<number, Render>();
const workers: RenderWorker[] = [];
let lastId = 0;

/**
 * A render worker's thread: the build's render-worker.mjs (at the top of the build, this module being in
 * it or in one of its chunks), or, running from the sources, render-worker.ts loaded through tsx, whose
 * loader a worker thread does not inherit.
 */
function workerThread(): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!here.endsWith(".ts")) {
    const file = here.includes("/chunks/") ? "../render-worker.mjs" : "./render-worker.mjs";
    return new Worker(new URL(file, here), { resourceLimits });
  }
  const source = JSON.stringify(new URL("./render-worker.ts", here).href);
  const load = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${source}); });`;
  return new Worker(load, { eval: true, resourceLimits });
}

function startWorker(): RenderWorker {
  const thread = workerThread();
  const worker: RenderWorker = { thread, renders: new Set() };
  // Idle workers do not keep the process alive.
  thread.unref();
  thread.on("message", (message: FromWorker) => answer(worker, message));
  // A worker that failed (out of memory, say) is replaced when a page next needs one, not at once: one
  // that cannot start would otherwise be started again and again.
  thread.on("error", (error) => replace(worker, error, false));
  thread.on("exit", () => replace(worker, new Error("render worker stopped"), false));
  return worker;
}

const POOL_SIZE = Math.max(1, availableParallelism());

/** The workers, started on the first page and topped up when one went away. */
function pool(): RenderWorker[] {
  while (workers.length < POOL_SIZE) workers.push(startWorker());
  return workers;
}

/** Renders `job` in a worker, within RENDER_LIMIT_MS from now; `entries` reads the tags' lists. */
export function renderInWorker(
  job: Omit<SiteRenderJob, "remainingMs">,
  entries: (args: EntryListArgs) => Promise<EntryList | null>,
): Promise<SiteRenderResult> {
  return new Promise((resolve, reject) => {
    lastId += 1;
    const render: Render = {
      id: lastId,
      job,
      deadline: performance.now() + RENDER_LIMIT_MS,
      entries,
      attempts: 0,
      resolve,
      reject,
    };
    renders.set(render.id, render);
    dispatch(render);
  });
}

/** Sends the page to the worker with the fewest pages, watched until its deadline and the grace. */
function dispatch(render: Render): void {
  const remainingMs = render.deadline - performance.now();
  if (remainingMs <= 0 || render.attempts >= MAX_ATTEMPTS) {
    settle(render, new RenderLimitError("page render time limit exceeded"));
    return;
  }
  const worker = pool().reduce((least, next) => (next.renders.size < least.renders.size ? next : least));
  render.attempts += 1;
  render.worker = worker;
  worker.renders.add(render);
  if (worker.renders.size === 1) worker.thread.ref();
  clearTimeout(render.timer);
  render.timer = setTimeout(() => stuck(render), remainingMs + GRACE_MS);
  const message: ToWorker = { type: "render", id: render.id, job: { ...render.job, remainingMs } };
  worker.thread.postMessage(message);
}

function settle(render: Render, outcome: SiteRenderResult | unknown, rendered = false): void {
  clearTimeout(render.timer);
  renders.delete(render.id);
  const { worker } = render;
  if (worker) {
    worker.renders.delete(render);
    if (worker.renders.size === 0) worker.thread.unref();
  }
  if (rendered) render.resolve(outcome as SiteRenderResult);
  else render.reject(render.entriesError ?? outcome);
}

function answer(worker: RenderWorker, message: FromWorker): void {
  const render = renders.get(message.id);
  // A page sent again elsewhere is answered by its new worker only.
  if (!render || render.worker !== worker) return;
  if (message.type === "rendered") settle(render, message.result, true);
  else if (message.type === "failed") settle(render, new Error(message.message));
  else void readEntries(worker, render, message.call, message.args);
}

async function readEntries(worker: RenderWorker, render: Render, call: number, args: EntryListArgs) {
  let reply: ToWorker;
  try {
    reply = { type: "entries", call, list: await render.entries(args) };
  } catch (error) {
    render.entriesError ??= error;
    reply = { type: "entries", call, error: error instanceof Error ? error.message : String(error) };
  }
  if (workers.includes(worker)) worker.thread.postMessage(reply);
}

/** A page not answered by its deadline and the grace: its worker is stuck in one long step. */
function stuck(render: Render): void {
  if (renders.get(render.id) === render && render.worker) replace(render.worker);
}

/**
 * Stops `worker` and (`restart`) starts another in its place; its pages past their deadline fail with the
 * time limit, the others are sent again.
 */
function replace(worker: RenderWorker, cause?: unknown, restart = true): void {
  const at = workers.indexOf(worker);
  if (at < 0) return;
  if (restart) workers[at] = startWorker();
  else workers.splice(at, 1);
  worker.thread.removeAllListeners("exit");
  void worker.thread.terminate();
  for (const render of worker.renders) {
    render.worker = undefined;
    if (performance.now() >= render.deadline)
      settle(render, new RenderLimitError("page render time limit exceeded"));
    else if (render.attempts >= MAX_ATTEMPTS) settle(render, cause ?? new Error("render worker stopped"));
    else dispatch(render);
  }
  worker.renders.clear();
}
