// The one place the storage backend is chosen: an S3 bucket when ASSET_STORAGE names one, else the
// directory CMS_DATA_DIR/assets. Both stage uploads under CMS_DATA_DIR/assets/.staging, and both keep
// this installation's files in its own folder (storage.ts). A bucket that cannot be reached stops the
// start with one line naming the setting.
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { oneLine, SetupError } from "../setup-errors.ts";
import { installationId } from "./installation.ts";
import { createLocalStorage } from "./local.ts";
import type { BucketLocation } from "./location.ts";
import { privateDirectory } from "./private-files.ts";
import { createS3Storage, type S3Storage } from "./s3.ts";
import type { Storage } from "./storage.ts";

type StorageConfig = Pick<Config, "dataDir" | "assetBucket">;

/** The storage of the installation whose database is `db`. */
export async function openStorage(config: StorageConfig, db: Db): Promise<Storage> {
  return openStorageOf(config, await installationId(db));
}

/** The storage of the installation `installation` (a restore's, before its database exists). */
export async function openStorageOf(config: StorageConfig, installation: string): Promise<Storage> {
  // The data directory is private (private-files.ts), whichever database the installation uses, and so
  // is its assets directory (uploaded files, or the staged ones of a bucket), should it be mounted apart.
  privateDirectory(config.dataDir);
  privateDirectory(localRoot(config));
  return config.assetBucket
    ? openBucket(config, config.assetBucket, "ASSET_STORAGE", installation)
    : createLocalStorage(localRoot(config), installation);
}

/** Uploaded files' directory when no bucket is named (and the staging directory of both backends). */
export function localRoot(config: Pick<Config, "dataDir">): string {
  return join(config.dataDir, "assets");
}

/** The bucket's storage; `setting` is what named it, for the line said when it cannot be reached. */
export async function openBucket(
  config: Pick<Config, "dataDir">,
  bucket: BucketLocation,
  setting: string,
  installation: string,
): Promise<S3Storage> {
  try {
    return await createS3Storage(bucket, join(localRoot(config), ".staging"), installation);
  } catch (error) {
    throw new SetupError(`${setting}: cannot reach bucket ${bucket.bucket} (${s3Cause(error)})`);
  }
}

/** The SDK's errors for a missing bucket or a refused request carry only a name and a status. */
function s3Cause(error: unknown): string {
  const { name, message, $metadata } = error as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  if (status === 404) return "no such bucket";
  if (status === 403) return "access denied: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
  if (status) return `${name ?? "error"}, HTTP ${status}`;
  return message ? oneLine(error) : String(name);
}
