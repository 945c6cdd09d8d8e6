// Expiry: trash items older than TRASH_KEEP_DAYS are purged by a sweep every server process runs at start
// and then hourly, outside any request. Processes sweeping at once are harmless: each item is purged by
// whichever deletes its row first (purgeItem), the others skip it.
import type { Db } from "../../db/client.ts";
import type { Log } from "../../log.ts";
import type { Storage } from "../../storage/storage.ts";
import { runHourly } from "../hourly.ts";
import { purgeItem } from "./purge.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

/** Purges every item deleted more than `keepDays` days ago; returns how many this call purged. */
export async function purgeExpired(db: Db, storage: Storage, keepDays: number, now = Date.now()) {
  const cutoff = new Date(now - keepDays * DAY_MS);
  let purged = 0;
  for (;;) {
    const batch = await db.trashItem.findMany({
      where: { deletedAt: { lte: cutoff } },
      select: { id: true, accountId: true, recordType: true, recordId: true },
      orderBy: [{ deletedAt: "asc" }, { id: "asc" }],
      take: BATCH,
    });
    for (const item of batch) if (await purgeItem(db, storage, item)) purged++;
    if (batch.length < BATCH) return purged;
  }
}

/** Sweeps now and then hourly (hourly.ts); returns a stop function. */
export function startTrashSweep(db: Db, storage: Storage, keepDays: number, log: Log): () => void {
  return runHourly(
    "trash sweep",
    async () => {
      const purged = await purgeExpired(db, storage, keepDays);
      if (purged > 0) log({ level: "info", msg: "trash items expired", purged, keep_days: keepDays });
    },
    log,
  );
}
