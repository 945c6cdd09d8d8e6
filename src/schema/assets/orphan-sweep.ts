// The server removes asset files nothing names (orphans.ts) once they are an hour old: at start, then
// hourly, outside any request. An upload's file is named by its row within moments, so an hour-old
// file without one is the leftover of a crash. Processes sweeping at once are harmless (a removal of a
// file already gone does nothing).
import type { Db } from "../../db/client.ts";
import type { Log } from "../../log.ts";
import type { Storage } from "../../storage/storage.ts";
import { runHourly } from "../hourly.ts";
import { orphanFiles } from "./orphans.ts";

export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/** Removes the orphan files older than ORPHAN_AGE_MS; returns how many. */
export async function sweepOrphans(db: Db, storage: Storage, now = Date.now()): Promise<number> {
  let removed = 0;
  for await (const file of orphanFiles(db, storage, new Date(now - ORPHAN_AGE_MS))) {
    await storage.remove(file.accountId, file.assetId);
    removed++;
  }
  return removed;
}

/** Sweeps now and then hourly (hourly.ts); returns a stop function. */
export function startOrphanSweep(db: Db, storage: Storage, log: Log): () => void {
  return runHourly(
    "orphan sweep",
    async () => {
      const removed = await sweepOrphans(db, storage);
      if (removed > 0) log({ level: "info", msg: "orphan asset files removed", removed });
    },
    log,
  );
}
