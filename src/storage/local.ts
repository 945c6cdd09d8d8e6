// Uploaded files on the local disk, under CMS_DATA_DIR/assets (decisions.md): one file per asset at
// <account ID>/<asset ID>, so that renaming or moving an asset never touches its bytes. Uploads are staged
// in `.staging/` (same file system) and renamed into place.
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { createStaging, isMissing } from "./staging.ts";
import { type Storage, storageKey, storageKeyPattern } from "./storage.ts";

export async function createLocalStorage(root: string): Promise<Storage> {
  const staging = await createStaging(join(root, ".staging"));
  const accountDir = (accountId: string) => join(root, storageKey(accountId, "account"));
  const assetPath = (accountId: string, assetId: string) =>
    join(accountDir(accountId), storageKey(assetId, "asset"));

  return {
    ...staging,

    async commit(stagedId, accountId, assetId) {
      const dir = accountDir(accountId);
      await mkdir(dir, { recursive: true });
      await rename(staging.path(stagedId), assetPath(accountId, assetId));
      await syncDirectory(dir);
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
      // Sorted, and none when the folder is gone: a backup lists the same order on every run.
      for (const accountId of (await readdir(root).catch(() => [])).sort()) {
        if (!storageKeyPattern.test(accountId)) continue;
        const names = (await readdir(join(root, accountId)).catch(() => [])).sort();
        for (const assetId of names) {
          if (!storageKeyPattern.test(assetId)) continue;
          const info = await stat(join(root, accountId, assetId)).catch(() => undefined);
          if (info?.isFile()) yield { accountId, assetId, size: info.size, modifiedAt: info.mtime };
        }
      }
    },
  };
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
