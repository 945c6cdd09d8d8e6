// Bulk inserts from worker threads. Most of a 2,000-row `createMany` is Prisma's client building and
// compiling the query (JavaScript and WASM) on one core; two writers use both cores while the server
// idles (SQLite still commits one batch at a time, PostgreSQL several).
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { openDatabase } from "../src/db/client.ts";

export interface Batch {
  entries: object[];
  references: object[];
}

interface Connection {
  dataDir: string;
  databaseUrl: string | undefined;
}

type Waiting = { resolve: () => void; reject: (error: Error) => void };

export function startWriters(connection: Connection, count = 2) {
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL("./seed-writer.mjs", import.meta.url), { workerData: connection }),
  );
  const waiting = new Map<number, Waiting>();
  let sent = 0;
  for (const worker of workers) {
    worker.on("message", ({ id, error }: { id: number; error?: string }) => {
      const batch = waiting.get(id);
      waiting.delete(id);
      if (error) batch?.reject(new Error(error));
      else batch?.resolve();
    });
    worker.on("error", (error) => {
      for (const batch of waiting.values()) batch.reject(error);
      waiting.clear();
    });
  }
  return {
    /** Writes the batch on the next writer in turn. */
    write(batch: Batch): Promise<void> {
      const id = sent++;
      const worker = workers[id % workers.length] as Worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, ...batch });
      });
    },
    close: () => Promise.all(workers.map((worker) => worker.terminate())),
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { db } = await openDatabase(workerData as Connection);
  port.on("message", async ({ id, entries, references }: Batch & { id: number }) => {
    try {
      await db.entry.createMany({ data: entries as never });
      if (references.length > 0) await db.entryReference.createMany({ data: references as never });
      port.postMessage({ id });
    } catch (error) {
      port.postMessage({ id, error: String(error) });
    }
  });
}
