// `cms backup --out FILE.tar.gz`: the whole instance while the server keeps serving and writing. The
// archive holds `backup.json` (what it is), `database/<kind>` (db/snapshot.ts: SQLite's VACUUM INTO or
// PostgreSQL's pg_dump) and every committed asset file of this installation as
// `assets/<account ID>/<asset ID>`, read through the storage (never another installation's sharing the
// data directory or bucket, storage.ts). The database is copied first: a file uploaded later is an orphan in the copy (the
// restored server sweeps it), and a file deleted in between is reported missing by `cms doctor`. The
// file appears whole or not at all (written beside itself, renamed at the end), readable by its owner
// only: it holds webhook secrets, token hashes, every account's drafts and the preview signing key.
import { createReadStream } from "node:fs";
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { takeSnapshot } from "../db/snapshot.ts";
import { ownedLegacyFiles } from "../schema/assets/orphans.ts";
import { openStorage } from "../storage/open.ts";
import type { StoredFile } from "../storage/storage.ts";
import { UsageError } from "./args.ts";
import { counted } from "./plural.ts";
import { progressBar } from "./progress.ts";
import { addFile, writeTarGz } from "./tar-entry.ts";

export const MANIFEST = "backup.json";
export const BACKUP_FORMAT = 1;

export interface BackupSummary {
  file: string;
  database: string;
  assets: number;
  bytes: number;
}

export async function backupToFile(
  database: Database,
  config: Pick<Config, "dataDir" | "databaseUrl" | "assetBucket">,
  out: string,
): Promise<BackupSummary> {
  if (!/\.(tar\.gz|tgz)$/i.test(out)) throw new UsageError("--out must end in .tar.gz or .tgz");
  const storage = await openStorage(config, database.db);
  const work = await mkdtemp(join(tmpdir(), "cms-backup-"));
  const partial = `${out}.partial`;
  const progress = progressBar(process.stderr, "backing up", 1);
  try {
    progress.update(0, "database");
    const snapshot = join(work, "database");
    const kind = await takeSnapshot(database, config, snapshot);
    // This installation's files: its own folder's, and those of the legacy layout its rows name.
    const files: StoredFile[] = [];
    for await (const file of storage.list()) files.push(file);
    for await (const file of ownedLegacyFiles(database.db, storage)) files.push(file);
    const total = files.reduce((sum, file) => sum + file.size, 0);
    const bar = progressBar(process.stderr, "backing up", total + 1);
    bar.update(1, `database copied, ${counted(files.length, "asset file")}`);

    let done = 1;
    let assets = 0;
    try {
      await writeTarGz(partial, async (pack) => {
        const manifest = JSON.stringify({ format: BACKUP_FORMAT, database: kind, created_at: new Date() });
        await addFile(pack, MANIFEST, Buffer.byteLength(manifest), Readable.from([manifest]));
        await addFile(pack, `database/${kind}`, (await stat(snapshot)).size, createReadStream(snapshot));
        for (const file of files) {
          const bytes = await storage.read(file.accountId, file.assetId);
          // Removed since it was listed (a purge): its row is gone from later states too.
          if (!bytes) continue;
          await addFile(pack, `assets/${file.accountId}/${file.assetId}`, file.size, bytes, file.modifiedAt);
          assets++;
          done += file.size;
          bar.update(done, `${assets}/${counted(files.length, "asset file")}`);
        }
      });
    } finally {
      bar.finish();
    }
    await rename(partial, out);
    return { file: out, database: kind, assets, bytes: (await stat(out)).size };
  } finally {
    progress.finish();
    await rm(partial, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}
