// Writing a .tar.gz with tar-stream, for `cms export` and `cms backup`: the archive, and one file into it.
import { createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import tar, { type Pack } from "tar-stream";
import { PRIVATE_FILE } from "../storage/private-files.ts";

/**
 * Writes `file` as a .tar.gz whose entries `fill` adds; if `fill` fails, the archive is abandoned. The
 * file is its owner's alone (0600) from its creation: a backup holds every secret of the installation,
 * an export a site's drafts.
 */
export async function writeTarGz(file: string, fill: (pack: Pack) => Promise<void>): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(file, { mode: PRIVATE_FILE }));
  // Awaited below; until then a failure of the file must not count as an unhandled rejection.
  written.catch(() => {});
  try {
    await fill(pack);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  } finally {
    await written;
  }
}

/** One file: its bytes piped in, done once tar-stream has taken them. */
export async function addFile(
  pack: Pack,
  name: string,
  size: number,
  bytes: Readable,
  mtime = new Date(),
): Promise<void> {
  let settle: (error?: Error | null) => void = () => {};
  const added = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  const entry = pack.entry({ name, size, mode: 0o644, mtime }, (error?: Error | null) => settle(error));
  await pipeline(bytes, entry);
  await added;
}
