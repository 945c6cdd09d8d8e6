// Uploaded files on the local disk, under CMS_DATA_DIR/assets (decisions.md): one file per asset at
// <installation ID>/<account ID>/<asset ID> (storage.ts: a folder per installation), so that renaming or
// moving an asset never touches its bytes. Uploads are staged in `.staging/` (same file system) and
// renamed into place.
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_DIRECTORY } from "./private-files.ts";
import { createStaging, isMissing } from "./staging.ts";
import { type Storage, type StoredFile, storageKey, storageKeyPattern } from "./storage.ts";

export async function createLocalStorage(root: string, installation: string): Promise<Storage> {
  const own = join(root, storageKey(installation, "installation"));
  const staging = await createStaging(join(root, ".staging"));
  const accountDir = (base: string, accountId: string) => join(base, storageKey(accountId, "account"));
  const assetPath = (base: string, accountId: string, assetId: string) =>
    join(accountDir(base, accountId), storageKey(assetId, "asset"));

  return {
    ...staging,

    async commit(stagedId, accountId, assetId) {
      const dir = accountDir(own, accountId);
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY });
      await rename(staging.path(stagedId), assetPath(own, accountId, assetId));
      await syncDirectory(dir);
    },

    async read(accountId, assetId, range) {
      // This installation's folder first, then the legacy layout (storage.ts).
      for (const base of [own, root]) {
        let handle: Awaited<ReturnType<typeof open>>;
        try {
          handle = await open(assetPath(base, accountId, assetId), "r");
        } catch (error) {
          if (isMissing(error)) continue;
          throw error;
        }
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      }
      return undefined;
    },

    async remove(accountId, assetId) {
      await rm(assetPath(own, accountId, assetId), { force: true });
      await rm(assetPath(root, accountId, assetId), { force: true });
    },

    list: () => filesUnder(own),
    // Installation folders hold folders, never files: only the legacy layout's files are listed here.
    listLegacy: () => filesUnder(root),
  };
}

/** The files at <dir>/<account ID>/<asset ID>, sorted (a backup lists the same order on every run). */
async function* filesUnder(dir: string): AsyncGenerator<StoredFile> {
  for (const accountId of (await readdir(dir).catch(() => [])).sort()) {
    if (!storageKeyPattern.test(accountId)) continue;
    const names = (await readdir(join(dir, accountId)).catch(() => [])).sort();
    for (const assetId of names) {
      if (!storageKeyPattern.test(assetId)) continue;
      const info = await stat(join(dir, accountId, assetId)).catch(() => undefined);
      if (info?.isFile()) yield { accountId, assetId, size: info.size, modifiedAt: info.mtime };
    }
  }
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
