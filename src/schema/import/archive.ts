// An import's .tar.gz, as `cms export --out FILE.tar.gz` writes it: `site.yaml`, then each asset's bytes
// at `assets/<folder>/<filename>`. The document is read into memory (it is parsed whole anyway); each
// asset file goes straight to a staged file in the storage, its SHA-256 taken as it passes, so that no
// file is ever held in memory. Other members are named in the report as skipped.
// Everything is counted as it inflates, against limits.ts: a member whose header says it is too large is
// refused before its bytes are read, and the bytes are counted too (the header is the sender's word).
// Refused, the reading stops at once and whatever was staged is removed. So it does at the request's
// deadline: thousands of small files take seconds to stage, and no query is made meanwhile to be refused.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { type Deadline, DeadlinePassedError } from "../../db/deadline.ts";
import type { Storage } from "../../storage/storage.ts";
import { sizeText } from "../assets/limits.ts";
import { ApiError } from "../errors.ts";
import { type ArchiveLimits, IMPORT_ARCHIVE_LIMIT, inflatedTooLarge, tooManyFiles } from "./limits.ts";
import type { StagedAsset } from "./run.ts";

export interface ImportArchive {
  document: string | undefined;
  files: Map<string, StagedAsset>;
  skipped: string[];
}

const DOCUMENT = "site.yaml";
const ASSETS = "assets/";
/** A tar header's own bytes, before each member's. */
const HEADER = 512;
/** Skipped members named in the report; past it they are counted (an archive may hold millions). */
const MAX_SKIPPED_LISTED = 1000;
/** Gunzip's output chunks: its default 16 KB makes a gigabyte take several times as long. */
const INFLATE_CHUNK = 64 * 1024;

export async function readArchive(
  source: Readable,
  storage: Storage,
  limits: ArchiveLimits,
  deadline?: Deadline,
): Promise<ImportArchive> {
  const archive: ImportArchive = { document: undefined, files: new Map(), skipped: [] };
  const tooLarge = {
    document: () => inflatedTooLarge(DOCUMENT, limits.document, "the YAML document's limit"),
    asset: (name: string) => inflatedTooLarge(name, limits.asset, "the upload limit"),
    total: () =>
      inflatedTooLarge(
        "file",
        limits.total,
        `${sizeText(limits.document)} of site.yaml and ${sizeText(IMPORT_ARCHIVE_LIMIT)} of asset files`,
      ),
  };
  let declared = 0;
  let unlisted = 0;
  let assets = 0;
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^\.\//, "");
      const size = entry.header.size ?? 0;
      const kind = entry.header.type !== "file" ? "other" : memberKind(name);
      if (kind === "document" && size > limits.document) throw tooLarge.document();
      if (kind === "asset" && size > limits.asset) throw tooLarge.asset(name);
      declared += HEADER + size;
      if (declared > limits.total) throw tooLarge.total();
      if (entry.header.type !== "file") {
        entry.resume();
        continue;
      }
      if (kind === "document") archive.document = await text(entry, limits.document, tooLarge.document);
      else if (kind === "asset") {
        if (++assets > limits.files) throw tooManyFiles(limits.files);
        const file = await stageAsset(entry, storage, limits.asset, () => tooLarge.asset(name));
        const key = name.slice(ASSETS.length).normalize("NFC");
        // A name given twice: the later member wins, as tar extracts, and the earlier is not left staged.
        const earlier = archive.files.get(key);
        archive.files.set(key, file);
        if (earlier) await storage.discard(earlier.staged);
      } else {
        if (archive.skipped.length < MAX_SKIPPED_LISTED)
          archive.skipped.push(`${shortened(name)} in the archive: neither site.yaml nor under assets/`);
        else unlisted++;
        entry.resume();
      }
    }
  })();
  // Both are waited for, whichever fails first, so that a file being staged is removed before the answer.
  const [inflating, read] = await Promise.allSettled([
    pipeline(
      source,
      createGunzip({ chunkSize: INFLATE_CHUNK }),
      counted(limits.total, tooLarge.total, () => {
        if (deadline?.refuses()) throw new DeadlinePassedError();
      }),
      extract,
    ),
    reading,
  ]);
  const failures = [read, inflating].flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason] : [],
  );
  if (failures.length > 0) {
    await discardAll(storage, archive);
    const refusal = failures.find(
      (error) => error instanceof ApiError || error instanceof DeadlinePassedError,
    );
    if (refusal) throw refusal;
    const error = failures[0];
    throw new ApiError(400, "Malformed archive", [
      {
        path: "file",
        message: `is not a readable .tar.gz (${error instanceof Error ? error.message : String(error)})`,
      },
    ]);
  }
  if (unlisted > 0)
    archive.skipped.push(`and ${unlisted} more members of the archive, neither site.yaml nor under assets/`);
  return archive;
}

export async function discardAll(
  storage: Storage,
  archive: { files: Map<string, StagedAsset> },
): Promise<void> {
  for (const file of archive.files.values()) await storage.discard(file.staged);
}

/**
 * The bytes passing through, failing with `tooLarge()` once there are more than `limit`, or with what
 * `onChunk` throws.
 */
function counted(limit: number, tooLarge: () => ApiError, onChunk?: (chunk: Buffer) => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(tooLarge());
      try {
        onChunk?.(chunk);
      } catch (error) {
        return done(error as Error);
      }
      done(null, chunk);
    },
  });
}

async function stageAsset(
  entry: AsyncIterable<unknown>,
  storage: Storage,
  limit: number,
  tooLarge: () => ApiError,
): Promise<StagedAsset> {
  const hash = createHash("sha256");
  const bytes = counted(limit, tooLarge, (chunk) => hash.update(chunk));
  // Both settle before this returns or throws: a failed stage has removed its partial file by then.
  const [staging, passing] = await Promise.allSettled([storage.stage(bytes), pipeline(entry, bytes)]);
  if (passing.status === "rejected") {
    if (staging.status === "fulfilled") await storage.discard(staging.value.id);
    throw passing.reason;
  }
  if (staging.status === "rejected") throw staging.reason;
  return { staged: staging.value.id, size: staging.value.size, sha256: hash.digest("hex") };
}

/** The member as UTF-8 text; never more than `limit` bytes are held. */
async function text(
  stream: AsyncIterable<unknown>,
  limit: number,
  tooLarge: () => ApiError,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw ApiError.invalid(DOCUMENT, "is not valid UTF-8 text");
  }
}

function memberKind(name: string): "document" | "asset" | "other" {
  if (name === DOCUMENT) return "document";
  return name.startsWith(ASSETS) && name.length > ASSETS.length ? "asset" : "other";
}

/** A member's name as the report shows it: a pax header may make it megabytes long. */
function shortened(name: string): string {
  return name.length > 200 ? `${name.slice(0, 200)}…` : name;
}
