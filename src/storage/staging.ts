// Staged uploads on the local disk, in both backends: written to <dir>/<random id> with `flush` (the
// bytes reach the disk before any row can name them), checked, then committed by the backend. Staged
// files older than an hour are leftovers of a crash and are removed on start.
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Staging } from "./storage.ts";

const stagedIdPattern = /^[0-9a-f]{32}$/;
const STALE_STAGED_MS = 60 * 60 * 1000;

export interface LocalStaging extends Staging {
  /** The file a staged ID names (an invalid ID throws). */
  path(stagedId: string): string;
}

export async function createStaging(dir: string): Promise<LocalStaging> {
  await mkdir(dir, { recursive: true });
  await removeStale(dir);

  const path = (id: string) => {
    if (!stagedIdPattern.test(id)) throw new Error("invalid staged file reference");
    return join(dir, id);
  };

  return {
    path,

    async stage(source) {
      const id = randomBytes(16).toString("hex");
      const file = path(id);
      try {
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
        return (await stat(path(stagedId))).size;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async stagedHead(stagedId, length) {
      const handle = await open(path(stagedId), "r");
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    readStaged(stagedId) {
      return createReadStream(path(stagedId));
    },

    async discard(stagedId) {
      if (stagedIdPattern.test(stagedId)) await rm(path(stagedId), { force: true });
    },
  };
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

async function removeStale(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_STAGED_MS) await rm(file, { force: true, recursive: true });
  }
}
