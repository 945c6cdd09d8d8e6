// Storage.list() in both backends: every committed asset file with its account, asset, size and
// time, and nothing staged; the local directory and an S3 bucket (s3rver, the real SDK) alike. Two
// installations sharing one directory or bucket each see their own folder only; files of the layout from
// before installation folders are read by both and never listed as either's own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newInstallationId } from "../src/storage/installation.ts";
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

const backends: [string, (installation: string) => Promise<Storage>][] = [
  ["the local directory", (installation) => createLocalStorage(join(dir, "local"), installation)],
  [
    "an S3 bucket",
    (installation) =>
      createS3Storage({ bucket: s3.bucket, prefix: "listed" }, join(dir, "staging"), installation, s3.client),
  ],
];

describe.each(backends)("list() in %s", (_name, open) => {
  it("gives every committed file, and no staged one", async () => {
    const storage = await open(newInstallationId());
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

/** A file of the layout from before installation folders: <account ID>/<asset ID> at the root. */
const legacyWrites: Record<string, (accountId: string, assetId: string, text: string) => Promise<void>> = {
  "the local directory": async (accountId, assetId, text) => {
    mkdirSync(join(dir, "local", accountId), { recursive: true });
    writeFileSync(join(dir, "local", accountId, assetId), text);
  },
  "an S3 bucket": async (accountId, assetId, text) => {
    await s3.client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: `listed/${accountId}/${assetId}`, Body: text }),
    );
  },
};

async function text(storage: Storage, accountId: string, assetId: string): Promise<string | undefined> {
  const bytes = await storage.read(accountId, assetId);
  if (!bytes) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

describe.each(backends)("two installations in %s", (name, open) => {
  it("each list, read and remove their own files only; the legacy layout is read by both and listed apart", async () => {
    const [first, second] = [await open(newInstallationId()), await open(newInstallationId())];
    await commitFile(first, "acct_shared", "asset_first", "first's");
    await commitFile(second, "acct_shared", "asset_second", "second's");
    await legacyWrites[name]?.("acct_old", "asset_old", "from before");

    const ids = async (files: AsyncIterable<{ assetId: string }>) => {
      const found = [];
      for await (const file of files) found.push(file.assetId);
      return found.sort();
    };
    expect(await ids(first.list())).toEqual(["asset_first"]);
    expect(await ids(second.list())).toEqual(["asset_second"]);
    expect(await ids(first.listLegacy())).toEqual(["asset_old"]);
    expect(await ids(second.listLegacy())).toEqual(["asset_old"]);
    expect(await text(first, "acct_shared", "asset_second")).toBeUndefined();
    expect(await text(second, "acct_shared", "asset_second")).toBe("second's");
    // The upgraded installation still finds its file where the legacy layout put it.
    expect(await text(first, "acct_old", "asset_old")).toBe("from before");

    await first.remove("acct_shared", "asset_second");
    expect(await text(second, "acct_shared", "asset_second")).toBe("second's");
    await second.remove("acct_old", "asset_old");
    expect(await text(first, "acct_old", "asset_old")).toBeUndefined();
  });
});
