// An asset's SHA-256, from its stored bytes read as a stream (a file is never held in memory whole): an
// import can tell that the bytes it was given are the ones exported.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";

/** The hex digest, or null when the stored file is missing. */
export async function sha256Of(bytes: Readable | undefined): Promise<string | null> {
  if (!bytes) return null;
  const hash = createHash("sha256");
  for await (const chunk of bytes) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
