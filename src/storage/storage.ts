// Where uploaded files live: the one interface the schema, the REST upload and the CLI use, whatever the
// backend (src/storage/open.ts chooses one: the local directory or an S3 bucket). Uploads are staged
// first (on the local disk, in both backends) so that their type can be checked before they are kept,
// then committed to their asset's place: a file is complete before any row can name it.
//
// Files belong to the installation (the database) that wrote them: each keeps its own under a folder
// named by its installation ID (installation.ts), `<installation ID>/<account ID>/<asset ID>`, so that
// two installations sharing a data directory or a bucket never list, sweep or back up each other's.
// Files written before installations had folders stay at `<account ID>/<asset ID>` (the legacy layout):
// they are read and removed there as a fallback, and never swept, since no installation can tell
// whether another one names them.
import type { Readable } from "node:stream";

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

/** The staging half of a storage: files of the upload being handled, on this process's disk. */
export interface Staging {
  /** Writes the stream to a new staged file. On failure, the partial file is removed and the error rethrown. */
  stage(source: Readable | AsyncIterable<Uint8Array>): Promise<StagedFile>;
  /** The size of a staged file, or undefined when there is no such staged file. */
  stagedSize(stagedId: string): Promise<number | undefined>;
  /** The first `length` bytes of a staged file (fewer when it is shorter). */
  stagedHead(stagedId: string, length: number): Promise<Buffer>;
  /** A stream of a staged file's bytes (an uploaded archive read before it is discarded). */
  readStaged(stagedId: string): Readable;
  /** Removes a staged file; nothing happens when it was committed or never existed. */
  discard(stagedId: string): Promise<void>;
}

export interface Storage extends Staging {
  /** Moves a staged file to its asset's place; on failure nothing is left there. */
  commit(stagedId: string, accountId: string, assetId: string): Promise<void>;
  /** A stream of the asset's bytes (or of one range of them), or undefined when the file is missing. */
  read(accountId: string, assetId: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes an asset's file; nothing happens when it is already gone. */
  remove(accountId: string, assetId: string): Promise<void>;
  /** Every committed asset file of this installation (never a staged one), for backups and the orphan checks. */
  list(): AsyncIterable<StoredFile>;
  /** Every file of the legacy layout, whichever installation wrote it (some may be this one's). */
  listLegacy(): AsyncIterable<StoredFile>;
}

/** A committed asset file, as `Storage.list` tells of it. */
export interface StoredFile {
  accountId: string;
  assetId: string;
  size: number;
  modifiedAt: Date;
}

/** Prefix IDs: a lowercase prefix, `_`, lowercase base32. Never a path separator or `..`. */
export const storageKeyPattern = /^[a-z]+_[0-9a-z]+$/;

/** An installation, account or asset ID as a file or object name; anything else is refused. */
export function storageKey(id: string, what: "installation" | "account" | "asset"): string {
  if (!storageKeyPattern.test(id)) throw new Error(`invalid ${what} ID for storage`);
  return id;
}
