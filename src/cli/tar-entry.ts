// One file into a tar archive being written (tar-stream's pack): its bytes piped in, done once tar-stream
// has taken them. Shared by `cms export` and `cms backup`.
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Pack } from "tar-stream";

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
