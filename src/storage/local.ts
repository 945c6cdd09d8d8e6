// Uploaded files on the local disk, under CMS_DATA_DIR/assets (decisions.md): one file per asset at
// <account ID>/<asset ID>, so that renaming or moving an asset never touches its bytes. Uploads are first
// written to `.staging/` (same file system), flushed to disk, then renamed into place: a file is complete
// before any row can name it.
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface StagedFile {
  /** Opaque reference to the staged file (32 hex characters). */
  id: string;
  size: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** A committed asset file, as `Storage.list` tells of it. */
export interface StoredFile {
  accountId: string;
  assetId: string;
  size: number;
  modifiedAt: Date;
}

export interface Storage {
  /** Writes the stream to a new staged file. On failure, the partial file is removed and the error rethrown. */
  stage(source: Readable | AsyncIterable<Uint8Array>): Promise<StagedFile>;
  /** The size of a staged file, or undefined when there is no such staged file. */
  stagedSize(stagedId: string): Promise<number | undefined>;
  /** The first `length` bytes of a staged file (fewer when it is shorter). */
  stagedHead(stagedId: string, length: number): Promise<Buffer>;
  /** A stream of a staged file's bytes (an uploaded archive read before it is discarded). */
  readStaged(stagedId: string): Readable;
  /** Moves a staged file to its asset's place. */
  commit(stagedId: string, accountId: string, assetId: string): Promise<void>;
  /** Removes a staged file; nothing happens when it was committed or never existed. */
  discard(stagedId: string): Promise<void>;
  /** A stream of the asset's bytes (or of one range of them), or undefined when the file is missing. */
  read(accountId: string, assetId: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes an asset's file; nothing happens when it is already gone. */
  remove(accountId: string, assetId: string): Promise<void>;
  /** Every committed asset file (never a staged one), for backups and the orphan checks. */
  list(): AsyncIterable<StoredFile>;
}

const stagedIdPattern = /^[0-9a-f]{32}$/;
/** Prefix IDs: a lowercase prefix, `_`, lowercase base32. Never a path separator or `..`. */
const keyPattern = /^[a-z]+_[0-9a-z]+$/;
/** Staged files older than this are leftovers of a crash and are removed on start. */
const STALE_STAGED_MS = 60 * 60 * 1000;

export async function createLocalStorage(root: string): Promise<Storage> {
  const staging = join(root, ".staging");
  await mkdir(staging, { recursive: true });
  await removeStale(staging);

  const stagedPath = (id: string) => {
    if (!stagedIdPattern.test(id)) throw new Error("invalid staged file reference");
    return join(staging, id);
  };
  const accountDir = (accountId: string) => {
    if (!keyPattern.test(accountId)) throw new Error("invalid account ID for storage");
    return join(root, accountId);
  };
  const assetPath = (accountId: string, assetId: string) => {
    if (!keyPattern.test(assetId)) throw new Error("invalid asset ID for storage");
    return join(accountDir(accountId), assetId);
  };

  return {
    async stage(source) {
      const id = randomBytes(16).toString("hex");
      const file = stagedPath(id);
      try {
        // `flush`: the bytes reach the disk before the file is closed, hence before any row names it.
        await pipeline(source, createWriteStream(file, { flags: "wx", flush: true }));
        return { id, size: (await stat(file)).size };
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
    },

    async stagedSize(stagedId) {
      if (!stagedIdPattern.test(stagedId)) return undefined;
      try {
        return (await stat(stagedPath(stagedId))).size;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async stagedHead(stagedId, length) {
      const handle = await open(stagedPath(stagedId), "r");
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    readStaged(stagedId) {
      return createReadStream(stagedPath(stagedId));
    },

    async commit(stagedId, accountId, assetId) {
      const dir = accountDir(accountId);
      await mkdir(dir, { recursive: true });
      await rename(stagedPath(stagedId), assetPath(accountId, assetId));
      await syncDirectory(dir);
    },

    async discard(stagedId) {
      if (stagedIdPattern.test(stagedId)) await rm(stagedPath(stagedId), { force: true });
    },

    async read(accountId, assetId, range) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(assetPath(accountId, assetId), "r");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async remove(accountId, assetId) {
      await rm(assetPath(accountId, assetId), { force: true });
    },

    async *list() {
      for (const accountId of await namesIn(root)) {
        if (!keyPattern.test(accountId)) continue;
        for (const assetId of await namesIn(accountDir(accountId))) {
          if (!keyPattern.test(assetId)) continue;
          // Removed since the directory was read: not there any more.
          const info = await stat(assetPath(accountId, assetId)).catch(() => undefined);
          if (info?.isFile()) yield { accountId, assetId, size: info.size, modifiedAt: info.mtime };
        }
      }
    },
  };
}

/** The names in a directory, sorted; none when it is gone or not a directory. */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

/** Makes a rename durable: the directory entry itself is flushed. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename itself has happened.
  } finally {
    await handle.close();
  }
}

async function removeStale(staging: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(staging)) {
    const file = join(staging, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_STAGED_MS) await rm(file, { force: true, recursive: true });
  }
}
