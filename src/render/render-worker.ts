// A render worker's thread (render-pool.ts starts them): it renders the pages it is sent, many at once
// (each gives the others turns, render-guard.ts), and asks the main thread, which holds the schema and the
// database, for the entry lists the `query` and `paginate` tags read. Parsed templates stay cached here,
// across the pages this worker renders.
import { parentPort } from "node:worker_threads";
import type { FromWorker, ToWorker } from "./render-messages.ts";
import type { EntryList, EntryListArgs } from "./site-data.ts";
import { renderSite, type SiteRenderJob } from "./site-render.ts";

const port = parentPort;
if (!port) throw new Error("render-worker.ts runs as a worker thread (render-pool.ts)");

const send = (message: FromWorker) => port.postMessage(message);
const pending = new Map<number, { resolve(list: EntryList | null): void; reject(error: Error): void }>();
let calls = 0;

function entriesOf(id: number) {
  return (args: EntryListArgs) =>
    new Promise<EntryList | null>((resolve, reject) => {
      calls += 1;
      pending.set(calls, { resolve, reject });
      send({ type: "entries", id, call: calls, args });
    });
}

async function render(id: number, job: SiteRenderJob): Promise<void> {
  try {
    send({ type: "rendered", id, result: await renderSite(job, entriesOf(id)) });
  } catch (error) {
    send({ type: "failed", id, message: error instanceof Error ? error.message : String(error) });
  }
}

port.on("message", (message: ToWorker) => {
  if (message.type === "render") {
    void render(message.id, message.job);
    return;
  }
  const call = pending.get(message.call);
  pending.delete(message.call);
  if ("error" in message) call?.reject(new Error(message.error));
  else call?.resolve(message.list);
});
