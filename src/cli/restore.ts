// `cms restore FILE.tar.gz`: a backup (backup.ts) into an empty instance: the database the settings
// name (no database file under CMS_DATA_DIR, or a PostgreSQL database without tables). A non-empty
// target is refused in one line before anything is written. The restored database is an installation
// of its own: its asset files go to a new installation folder (storage.ts), whose ID it is given at the
// end, so that it never shares files with the installation backed up, should both use one data directory
// or bucket. The database copy is put in place at the end, so a failed restore leaves no database behind
// (and removes the asset files it wrote).
import { createReadStream, createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { notEmpty, restoreSnapshot } from "../db/snapshot.ts";
import { SetupError, writableDirectory } from "../setup-errors.ts";
import { newInstallationId, setInstallationId } from "../storage/installation.ts";
import { openStorageOf } from "../storage/open.ts";
import { UsageError } from "./args.ts";
import { BACKUP_FORMAT, MANIFEST } from "./backup.ts";
import { counted } from "./plural.ts";
import { progressBar } from "./progress.ts";

const assetName = /^assets\/([a-z]+_[0-9a-z]+)\/([a-z]+_[0-9a-z]+)$/;

export interface RestoreSummary {
  file: string;
  database: string;
  assets: number;
}

export async function restoreFromFile(
  config: Pick<Config, "dataDir" | "databaseUrl" | "assetBucket">,
  file: string,
): Promise<RestoreSummary> {
  const size = (await stat(file).catch(() => undefined))?.size;
  if (size === undefined) throw new UsageError(`no such file: ${file}`);
  writableDirectory(config.dataDir, "CMS_DATA_DIR");
  const occupied = await notEmpty(config);
  if (occupied) throw new SetupError(`restore needs an empty database: ${occupied}`);
  const installation = newInstallationId();
  const storage = await openStorageOf(config, installation);

  const snapshot = join(config.dataDir, "restoring.partial");
  const written: { accountId: string; assetId: string }[] = [];
  let kind: string | undefined;
  const progress = progressBar(process.stderr, "restoring", size);
  const source = createReadStream(file);
  source.on("data", () => progress.update(source.bytesRead, counted(written.length, "asset file")));
  const extract = tar.extract();
  const reading = pipeline(source, createGunzip(), extract);
  reading.catch(() => {});
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      // tar-stream's entries are streamx streams, which Node's pipeline reads as any stream.
      const bytes = entry as unknown as Readable;
      const asset = assetName.exec(name);
      if (name === MANIFEST) kind = readManifest(await text(bytes));
      else if (!kind)
        throw new UsageError(`${file} is not a cms backup (it does not start with ${MANIFEST})`);
      else if (name === `database/${kind}`) await pipeline(bytes, createWriteStream(snapshot));
      else if (asset?.[1] && asset[2]) {
        const staged = await storage.stage(bytes);
        await storage.commit(staged.id, asset[1], asset[2]);
        written.push({ accountId: asset[1], assetId: asset[2] });
      } else throw new UsageError(`${file} holds an unexpected file: ${name}`);
    }
    await reading;
    if (!kind) throw new UsageError(`${file} is not a cms backup (no ${MANIFEST})`);
    if ((await stat(snapshot).catch(() => undefined)) === undefined)
      throw new UsageError(`${file} holds no copy of the database`);
    progress.update(size, "database");
    await restoreSnapshot(config, kind, snapshot);
    await adopt(config, installation);
    return { file, database: kind, assets: written.length };
  } catch (error) {
    for (const asset of written) await storage.remove(asset.accountId, asset.assetId);
    throw error;
  } finally {
    progress.finish();
    source.destroy();
    await rm(snapshot, { force: true });
  }
}

/** Gives the restored database its own installation ID (migrated first: the copy may be older). */
async function adopt(config: Pick<Config, "dataDir" | "databaseUrl">, installation: string): Promise<void> {
  const database = await openDatabase(config);
  try {
    await migrate(database);
    await setInstallationId(database.db, installation);
  } finally {
    await database.close();
  }
}

function readManifest(json: string): string {
  const manifest = JSON.parse(json) as { format?: number; database?: string };
  if (manifest.format !== BACKUP_FORMAT || !["sqlite", "postgresql"].includes(manifest.database ?? ""))
    throw new UsageError(`unknown backup format ${manifest.format} (this cms reads format ${BACKUP_FORMAT})`);
  return manifest.database as string;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
