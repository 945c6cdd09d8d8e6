// A local S3-compatible server (s3rver) on 127.0.0.1 with one bucket, and the environment that points
// the CMS, and an SDK client for the test's own checks, at it (the SDK's standard variables).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { s3Client } from "../../src/storage/s3.ts";

export interface TestBucket {
  bucket: string;
  /** AWS_* variables for a server or CLI using this bucket (ASSET_STORAGE is the caller's). */
  env: NodeJS.ProcessEnv;
  client: S3Client;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startS3(bucket = "cms-assets"): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), "cms-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  // s3rver accepts its fixed development credentials only.
  const env = {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
  };
  const client = s3Client(env);
  return {
    bucket,
    env,
    client,
    async keys() {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((object) => object.Key ?? "").sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
