// Checkpoints of the embedded database run in a worker thread. SQLite checkpoints inside the COMMIT that
// takes the WAL past 1,000 pages, on the one thread that answers every request: it copies the pages into
// the database file and flushes both files, about 150 µs a create on average and milliseconds for the one
// that pays (docs/performance.md). Here a second connection, in a worker, checkpoints every
// CHECKPOINT_EVERY_MS without blocking anything: a PASSIVE checkpoint takes no lock a reader or writer
// waits for, and one with nothing to copy costs microseconds. The server's own connection keeps SQLite's
// automatic checkpoint as a backstop at BACKSTOP_PAGES, for a worker that falls behind, and goes back to
// SQLite's default when the worker is gone. Checkpoints do not move `PRAGMA data_version`, so they end no
// kept answer (sqlite-changes.ts).
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { log } from "../log.ts";

export const CHECKPOINT_EVERY_MS = 100;
/** Pages in the WAL at which the server's connection checkpoints itself (SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1_000;

// A script, not a module of its own: the same code then runs from the TypeScript sources (tests) and from
// the bundle (scripts/build.mjs), which has no entry for a worker. It reaches better-sqlite3 by the path
// the server resolved, as the server does.
const checkpointer = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
db.pragma("wal_autocheckpoint = 0");
setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    // Another connection holds a lock a moment (a migration, a recovery): the next turn checkpoints.
    if (error.code !== "SQLITE_BUSY" && error.code !== "SQLITE_LOCKED") throw error;
  }
}, workerData.everyMs);
parentPort.on("message", () => {
  db.close();
  process.exit(0);
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Checkpoints `file` (in WAL mode, open on `client`) from a worker thread until `stop`. */
export function checkpointBeside(client: Database.Database, file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(checkpointer, {
    eval: true,
    workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS },
  });
  // A process that ends without closing the database (a test, a fatal error) is not held open by it.
  worker.unref();
  client.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let stopping = false;
  const ended = new Promise<void>((resolve) => {
    let heard = false;
    // An error thrown in the worker arrives as a copy: better-sqlite3's keeps only its code.
    const gone = (error: { message?: unknown }) => {
      if (heard) return;
      heard = true;
      if (!stopping && client.open) {
        client.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
        log({
          level: "warn",
          msg: "SQLite checkpoints are back on the server's thread",
          error: typeof error.message === "string" ? error.message : JSON.stringify(error),
        });
      }
      resolve();
    };
    worker.once("error", gone);
    worker.once("exit", (code) => gone(new Error(`the checkpoint worker exited with code ${code}`)));
  });
  return {
    async stop() {
      stopping = true;
      // Held until the worker has closed its connection: a process waiting for nothing else would end first.
      worker.ref();
      worker.postMessage("stop");
      await ended;
    },
  };
}
