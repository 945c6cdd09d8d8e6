// Asset files and rows that have lost each other. An upload stores its bytes before its row (a file is
// whole before anything names it), so a crash between the two leaves a file without a row; a file lost
// outside the CMS leaves a row without bytes. A file is still wanted while its asset is in the trash
// (its row is then the trash item's). Both lists go through the Storage interface only, so they work
// on any backend. Only this installation's own files (storage.ts) can be orphans: a file in another
// installation's folder, or in the legacy layout, may be named by a database this one cannot see.
import type { Db } from "../../db/client.ts";
import type { Storage, StoredFile } from "../../storage/storage.ts";

const BATCH = 500;

export interface MissingFile {
  accountId: string;
  assetId: string;
  path: string;
  filename: string;
}

/** Files no asset row nor trashed asset names, modified before `before` (a newer one may be mid-upload). */
export async function* orphanFiles(db: Db, storage: Storage, before: Date): AsyncGenerator<StoredFile> {
  const old = (file: StoredFile) => file.modifiedAt < before;
  yield* inBatches(db, filter(storage.list(), old), false);
}

/** Files of the legacy layout that this installation's rows or trashed assets name: its own, from before. */
export function ownedLegacyFiles(db: Db, storage: Storage): AsyncGenerator<StoredFile> {
  return inBatches(db, storage.listLegacy(), true);
}

async function* filter(
  files: AsyncIterable<StoredFile>,
  keep: (file: StoredFile) => boolean,
): AsyncGenerator<StoredFile> {
  for await (const file of files) if (keep(file)) yield file;
}

/** The files that are (`wanted`) or are not named, looked up BATCH at a time. */
async function* inBatches(
  db: Db,
  files: AsyncIterable<StoredFile>,
  wanted: boolean,
): AsyncGenerator<StoredFile> {
  let batch: StoredFile[] = [];
  for await (const file of files) {
    batch.push(file);
    if (batch.length < BATCH) continue;
    yield* named(db, batch, wanted);
    batch = [];
  }
  yield* named(db, batch, wanted);
}

async function* named(db: Db, files: StoredFile[], wanted: boolean): AsyncGenerator<StoredFile> {
  if (files.length === 0) return;
  const ids = files.map((file) => file.assetId);
  const [rows, trashed] = await Promise.all([
    db.asset.findMany({ where: { id: { in: ids } }, select: { id: true, accountId: true } }),
    db.trashItem.findMany({
      where: { recordType: "asset", recordId: { in: ids } },
      select: { recordId: true, accountId: true },
    }),
  ]);
  const names = new Set([
    ...rows.map((row) => `${row.accountId}/${row.id}`),
    ...trashed.map((item) => `${item.accountId}/${item.recordId}`),
  ]);
  for (const file of files) if (names.has(`${file.accountId}/${file.assetId}`) === wanted) yield file;
}

/** Asset rows (made before the files were listed) whose file the storage does not have. */
export async function* missingFiles(db: Db, storage: Storage): AsyncGenerator<MissingFile> {
  const listedAt = new Date();
  const stored = new Set<string>();
  for await (const file of storage.list()) stored.add(`${file.accountId}/${file.assetId}`);
  for await (const file of storage.listLegacy()) stored.add(`${file.accountId}/${file.assetId}`);
  for (let after = ""; ; ) {
    const rows = await db.asset.findMany({
      where: { id: { gt: after }, createdAt: { lt: listedAt } },
      select: { id: true, accountId: true, path: true, filename: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    for (const row of rows) {
      if (!stored.has(`${row.accountId}/${row.id}`))
        yield { accountId: row.accountId, assetId: row.id, path: row.path, filename: row.filename };
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}
