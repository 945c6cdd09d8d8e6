// Storage.list() in both backends (issue #21): every committed asset file with its account, asset, size and
// time, and nothing staged; the local directory and an S3 bucket (s3rver, the real SDK) alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../src/storage/local.ts";
import { createS3Storage } from "../src/storage/s3.ts";
import type { Storage } from "../src/storage/storage.ts";
import { startS3, type TestBucket } from "./helpers/s3.ts";

const dir = mkdtempSync(join(tmpdir(), "cms-storage-list-"));
let s3: TestBucket;

beforeAll(async () => {
  s3 = await startS3();
});

afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function listed(storage: Storage) {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files.sort((a, b) => a.assetId.localeCompare(b.assetId));
}

async function commitFile(storage: Storage, accountId: string, assetId: string, text: string) {
  const staged = await storage.stage(Readable.from([Buffer.from(text)]));
  await storage.commit(staged.id, accountId, assetId);
}

const backends: [string, () => Promise<Storage>][] = [
  ["the local directory", () => createLocalStorage(join(dir, "local"))],
  [
    "an S3 bucket",
    () => createS3Storage({ bucket: s3.bucket, prefix: "listed" }, join(dir, "staging"), s3.client),
  ],
];

describe.each(backends)("list() in %s", (_name, open) => {
  it("gives every committed file, and no staged one", async () => {
    const storage = await open();
    const started = Date.now() - 2_000;
    await commitFile(storage, "acct_one", "asset_a", "abc");
    await commitFile(storage, "acct_one", "asset_b", "hello");
    await commitFile(storage, "acct_two", "asset_c", "");
    await storage.stage(Readable.from([Buffer.from("staged, not committed")]));
    await storage.remove("acct_one", "asset_b");
    const files = await listed(storage);
    expect(files.map(({ accountId, assetId, size }) => ({ accountId, assetId, size }))).toEqual([
      { accountId: "acct_one", assetId: "asset_a", size: 3 },
      { accountId: "acct_two", assetId: "asset_c", size: 0 },
    ]);
    for (const file of files) expect(file.modifiedAt.getTime()).toBeGreaterThan(started);
  });
});
