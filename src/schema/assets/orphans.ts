// Asset files and rows that have lost each other. An upload stores its bytes before its row (a file is
// whole before anything names it), so a crash between the two leaves a file without a row; a file lost
// outside the CMS leaves a row without bytes. A file is still wanted while its asset is in the trash
// (its row is then the trash item's). Both lists go through the Storage interface only, so they work
// on any backend.
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
  let batch: StoredFile[] = [];
  for await (const file of storage.list()) {
    if (file.modifiedAt >= before) continue;
    batch.push(file);
    if (batch.length < BATCH) continue;
    yield* unnamed(db, batch);
    batch = [];
  }
  yield* unnamed(db, batch);
}

async function* unnamed(db: Db, files: StoredFile[]): AsyncGenerator<StoredFile> {
  if (files.length === 0) return;
  const ids = files.map((file) => file.assetId);
  const [rows, trashed] = await Promise.all([
    db.asset.findMany({ where: { id: { in: ids } }, select: { id: true, accountId: true } }),
    db.trashItem.findMany({
      where: { recordType: "asset", recordId: { in: ids } },
      select: { recordId: true, accountId: true },
    }),
  ]);
  const named = new Set([
    ...rows.map((row) => `${row.accountId}/${row.id}`),
    ...trashed.map((item) => `${item.accountId}/${item.recordId}`),
  ]);
  for (const file of files) if (!named.has(`${file.accountId}/${file.assetId}`)) yield file;
}

/** Asset rows (made before the files were listed) whose file the storage does not have. */
export async function* missingFiles(db: Db, storage: Storage): AsyncGenerator<MissingFile> {
  const listedAt = new Date();
  const stored = new Set<string>();
  for await (const file of storage.list()) stored.add(`${file.accountId}/${file.assetId}`);
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
