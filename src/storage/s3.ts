// Uploaded files in an S3-compatible bucket (ASSET_STORAGE=s3://bucket/prefix), so that every server
// process serves every file. One object per asset at <prefix>/<installation ID>/<account ID>/<asset ID>
// (storage.ts: a folder per installation; the legacy layout <prefix>/<account ID>/<asset ID> is read and
// removed as a fallback). Uploads are staged
// on the local disk (their type is checked there) and committed by a streamed multipart upload, which
// aborts its parts when it fails: an object exists only once it is complete. The client takes the SDK's
// standard variables (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL_S3).
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { BucketLocation } from "./location.ts";
import { createStaging } from "./staging.ts";
import { type Storage, type StoredFile, storageKey, storageKeyPattern } from "./storage.ts";

/**
 * A client from the SDK's standard variables, read from `env`; what they leave unset (credentials from a
 * profile or an instance role, for one) the SDK's own chains find. Path-style addressing whenever a
 * custom endpoint is set.
 */
export function s3Client(env: NodeJS.ProcessEnv = process.env): S3Client {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const { AWS_REGION: region, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const config: S3ClientConfig = {
    forcePathStyle: endpoint !== undefined,
    ...(endpoint && { endpoint }),
    ...(region && { region }),
    ...(accessKeyId && secretAccessKey && { credentials: { accessKeyId, secretAccessKey } }),
  };
  // MinIO, R2 and local test servers do not all take the checksums the SDK adds by default.
  if (endpoint) {
    config.requestChecksumCalculation = "WHEN_REQUIRED";
    config.responseChecksumValidation = "WHEN_REQUIRED";
  }
  return new S3Client(config);
}

/** The bucket's storage, with the direct writes `cms assets copy-to-s3` uses. */
export interface S3Storage extends Storage {
  /** Streams `body` to the asset's object (a multipart upload, its parts aborted on failure). */
  write(accountId: string, assetId: string, body: Readable): Promise<void>;
  /** The size of the asset's object, or undefined when there is none. */
  size(accountId: string, assetId: string): Promise<number | undefined>;
}

export async function createS3Storage(
  location: BucketLocation,
  stagingDir: string,
  installation: string,
  client: S3Client = s3Client(),
): Promise<S3Storage> {
  const { bucket } = location;
  const base = location.prefix ? `${location.prefix}/` : "";
  const own = `${base}${storageKey(installation, "installation")}/`;
  const staging = await createStaging(stagingDir);
  const keyUnder = (folder: string, accountId: string, assetId: string) =>
    `${folder}${storageKey(accountId, "account")}/${storageKey(assetId, "asset")}`;
  const key = (accountId: string, assetId: string) => keyUnder(own, accountId, assetId);
  const legacyKey = (accountId: string, assetId: string) => keyUnder(base, accountId, assetId);

  const get = async (objectKey: string, range?: { start: number; end: number }) => {
    try {
      const object = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: objectKey,
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return object.Body as Readable;
    } catch (error) {
      if (isNoSuchKey(error)) return undefined;
      throw error;
    }
  };

  /** The objects at <folder><account ID>/<asset ID>, deeper keys (other installations' folders) skipped. */
  async function* objectsUnder(folder: string): AsyncGenerator<StoredFile> {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: folder, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const [accountId = "", assetId = "", ...rest] = (object.Key ?? "").slice(folder.length).split("/");
        if (rest.length > 0 || !storageKeyPattern.test(accountId) || !storageKeyPattern.test(assetId))
          continue;
        yield {
          accountId,
          assetId,
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  // Reached now, so that a wrong bucket or credentials stop the start, not the first upload.
  await client.send(new HeadBucketCommand({ Bucket: bucket }));

  const write = async (accountId: string, assetId: string, body: Readable) => {
    const params = { Bucket: bucket, Key: key(accountId, assetId), Body: body };
    await new Upload({ client, params, queueSize: 2, leavePartsOnError: false }).done();
  };

  return {
    ...staging,
    write,

    async size(accountId, assetId) {
      try {
        const head = await client.send(
          new HeadObjectCommand({ Bucket: bucket, Key: key(accountId, assetId) }),
        );
        return head.ContentLength;
      } catch (error) {
        if (isNoSuchKey(error)) return undefined;
        throw error;
      }
    },

    async commit(stagedId, accountId, assetId) {
      await write(accountId, assetId, createReadStream(staging.path(stagedId)));
      // Kept on the local disk no longer than needed.
      await rm(staging.path(stagedId), { force: true });
    },

    async read(accountId, assetId, range) {
      // This installation's folder first, then the legacy layout (storage.ts).
      return (await get(key(accountId, assetId), range)) ?? (await get(legacyKey(accountId, assetId), range));
    },

    async remove(accountId, assetId) {
      // Deleting a missing key succeeds in S3.
      for (const objectKey of [key(accountId, assetId), legacyKey(accountId, assetId)])
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey }));
    },

    list: () => objectsUnder(own),
    listLegacy: () => objectsUnder(base),
  };
}

function isNoSuchKey(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
}
