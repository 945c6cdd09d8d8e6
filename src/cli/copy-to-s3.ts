// `cms assets copy-to-s3 [--to s3://bucket/prefix]`: copies the uploaded files kept under
// CMS_DATA_DIR/assets into a bucket (ASSET_STORAGE's unless --to names another), before a deployment
// switches to ASSET_STORAGE=s3://…. Each file is streamed; one already in the bucket with the same size
// is left alone, so a run that stopped half-way is simply run again. The local files are kept. Only this
// installation's files are copied (its folder's, and the legacy layout's its rows name: storage.ts), into
// its folder of the bucket.
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { ownedLegacyFiles } from "../schema/assets/orphans.ts";
import { installationId } from "../storage/installation.ts";
import { createLocalStorage } from "../storage/local.ts";
import { bucketLocation } from "../storage/location.ts";
import { localRoot, openBucket } from "../storage/open.ts";
import { UsageError } from "./args.ts";
import { progressBar } from "./progress.ts";

export interface CopySummary {
  bucket: string;
  copied: number;
  /** Already in the bucket with the same size. */
  skipped: number;
  bytes: number;
}

export async function copyAssetsToS3(
  database: Database,
  config: Pick<Config, "dataDir" | "assetBucket">,
  to: string | undefined,
): Promise<CopySummary> {
  const location = to === undefined ? config.assetBucket : bucketLocation(to);
  if (!location) {
    throw new UsageError(
      to === undefined
        ? "give --to s3://bucket/prefix (or set ASSET_STORAGE)"
        : "--to must be s3://bucket/prefix",
    );
  }
  const installation = await installationId(database.db);
  const setting = to === undefined ? "ASSET_STORAGE" : "--to";
  const bucket = await openBucket(config, location, setting, installation);
  const local = await createLocalStorage(localRoot(config), installation);
  const files = [];
  for await (const file of local.list()) files.push(file);
  for await (const file of ownedLegacyFiles(database.db, local)) files.push(file);
  const progress = progressBar(process.stderr, "copying", files.length);
  const summary = { bucket: `s3://${location.bucket}/${location.prefix}`, copied: 0, skipped: 0, bytes: 0 };
  try {
    for (const { accountId, assetId, size } of files) {
      if ((await bucket.size(accountId, assetId)) === size) summary.skipped++;
      else {
        const bytes = await local.read(accountId, assetId);
        // Gone since it was listed (the asset was purged meanwhile): nothing to copy.
        if (bytes) {
          await bucket.write(accountId, assetId, bytes);
          summary.copied++;
          summary.bytes += size;
        }
      }
      progress.update(summary.copied + summary.skipped, `${summary.copied} copied`);
    }
  } finally {
    progress.finish();
  }
  return summary;
}
