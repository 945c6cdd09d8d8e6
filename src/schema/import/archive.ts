// An import's .tar.gz, as `cms export --out FILE.tar.gz` writes it: `site.yaml`, then each asset's bytes
// at `assets/<folder>/<filename>`. The document is read into memory (it is parsed whole anyway); each
// asset file goes straight to a staged file in the storage, its SHA-256 taken as it passes, so that no
// file is ever held in memory. Other members are named in the report as skipped.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import type { Storage } from "../../storage/storage.ts";
import { ApiError } from "../errors.ts";
import type { StagedAsset } from "./run.ts";

export interface ImportArchive {
  document: string | undefined;
  files: Map<string, StagedAsset>;
  skipped: string[];
}

const DOCUMENT = "site.yaml";
const ASSETS = "assets/";

export async function readArchive(source: Readable, storage: Storage): Promise<ImportArchive> {
  const archive: ImportArchive = { document: undefined, files: new Map(), skipped: [] };
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^\.\//, "");
      if (entry.header.type !== "file") {
        entry.resume();
        continue;
      }
      if (name === DOCUMENT) archive.document = await text(entry);
      else if (name.startsWith(ASSETS) && name.length > ASSETS.length) {
        const hash = createHash("sha256");
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        });
        const [staged] = await Promise.all([storage.stage(counted), pipeline(entry, counted)]);
        archive.files.set(name.slice(ASSETS.length).normalize("NFC"), {
          staged: staged.id,
          size: staged.size,
          sha256: hash.digest("hex"),
        });
      } else {
        archive.skipped.push(`${name} in the archive: neither site.yaml nor under assets/`);
        entry.resume();
      }
    }
  })();
  try {
    await Promise.all([pipeline(source, createGunzip(), extract), reading]);
  } catch (error) {
    await discardAll(storage, archive);
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, "Malformed archive", [
      {
        path: "file",
        message: `is not a readable .tar.gz (${error instanceof Error ? error.message : String(error)})`,
      },
    ]);
  }
  return archive;
}

export async function discardAll(
  storage: Storage,
  archive: { files: Map<string, StagedAsset> },
): Promise<void> {
  for (const file of archive.files.values()) await storage.discard(file.staged);
}

async function text(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw ApiError.invalid("site.yaml", "is not valid UTF-8 text");
  }
}
