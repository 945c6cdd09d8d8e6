// How much an import may bring. The YAML document is held whole in memory and parsed, so it has a size
// limit; a .tar.gz has its own (what is sent), and what it inflates to is counted as it inflates, since a
// few megabytes of gzip can unpack into gigabytes: its site.yaml is held to the document's limit, each
// asset file to the upload limit (CMS_UPLOAD_LIMIT, as any asset upload), and the whole, headers and
// skipped members included, to the document's limit plus the archive's (asset files barely compress,
// so an honest archive inflates to about its own size). Past any of them: 413 naming the member, and
// nothing is written. docs/export-format.md states them.
import { sizeText } from "../assets/limits.ts";
import { ApiError } from "../errors.ts";

const MB = 1024 * 1024;

/** The YAML document, sent alone or as an archive's site.yaml: 100,000 entries take some 30 MB. */
export const IMPORT_DOCUMENT_LIMIT = 128 * MB;
/** A .tar.gz as sent: the document and every asset file, compressed. */
export const IMPORT_ARCHIVE_LIMIT = 1024 * MB;
/** A .tar.gz once inflated. */
export const IMPORT_INFLATED_LIMIT = IMPORT_DOCUMENT_LIMIT + IMPORT_ARCHIVE_LIMIT;

/**
 * How deep the document's nodes may nest (js-yaml counts scalars too). A record's value nests at most 64
 * levels (MAX_JSON_DEPTH, each value's own rule, with its path), below at most some 25 of the document's
 * own (a navigation's tree); past this, parsing would recurse deep enough to run out of stack, so the
 * document is refused whole, at the line where it goes too deep.
 */
export const MAX_DOCUMENT_DEPTH = 256;

export interface ArchiveLimits {
  /** site.yaml, inflated. */
  document: number;
  /** Each asset file, inflated. */
  asset: number;
  /** Everything the archive inflates to. */
  total: number;
  /** Asset files: each is staged (written and flushed) before the document is checked. */
  files: number;
}

/**
 * Asset files in a request's archive. Each costs a staged file (about a millisecond of disk work, and
 * not stopped by the request's timeout) whatever its size, so the count is bounded as the bytes are: a
 * gigabyte in more files than this is made of files under 50 KB on average.
 */
export const IMPORT_FILES_LIMIT = 20_000;

export function archiveLimits(uploadLimit: number): ArchiveLimits {
  return {
    document: IMPORT_DOCUMENT_LIMIT,
    asset: uploadLimit,
    total: IMPORT_INFLATED_LIMIT,
    files: IMPORT_FILES_LIMIT,
  };
}

/**
 * `cms import` reads the operator's own file, as `cms export` wrote it without limits (a backup, a move
 * between installations or databases): no request's limits apply, only what one string can hold (V8's
 * longest is 2^29 - 24 characters, a little over 511 MB of UTF-8) to the document.
 */
export const OPERATOR_ARCHIVE_LIMITS: ArchiveLimits = {
  document: 511 * MB,
  asset: Number.POSITIVE_INFINITY,
  total: Number.POSITIVE_INFINITY,
  files: Number.POSITIVE_INFINITY,
};

/** The 413 of an archive of more asset files than `limit`. */
export function tooManyFiles(limit: number): ApiError {
  return new ApiError(413, "Request body too large", [
    {
      path: "file",
      message: `must hold at most ${limit.toLocaleString("en-US")} asset files (cms import takes more)`,
    },
  ]);
}

/** The 413 of an archive member (or the whole archive, `file`) past its limit, as a body past its own. */
export function inflatedTooLarge(path: string, limit: number, which: string): ApiError {
  return new ApiError(413, "Request body too large", [
    { path, message: `must be at most ${sizeText(limit)} once inflated (${which})` },
  ]);
}

/** What reading the YAML document (parse-worker.ts) may take: time and memory, by its size. */
export interface ParseLimits {
  ms: number;
  memoryMb: number;
}

/**
 * Reading is bounded by what the document declares, its size: a second and 48 MB of memory a megabyte
 * (`yaml` reads some 2 MB a second where the fast path declines, and builds some 30 bytes of nodes a
 * byte) on top of 10 s and 256 MB; a request's reading at most 4 GB. An honest document takes a small
 * part of both; a document built to be slow or large to read hits one, and is refused as too complex.
 */
export function parseLimits(bytes: number, operator: boolean): ParseLimits {
  const mb = bytes / MB;
  const memoryMb = Math.ceil(256 + 48 * mb);
  return {
    ms: Math.ceil(10_000 + 1_000 * mb),
    memoryMb: operator ? memoryMb : Math.min(memoryMb, 4096),
  };
}

/**
 * A request's import of a larger body (the YAML document, or a .tar.gz as sent) is answered 202 with a
 * job (jobs.ts) rather than with its report; a smaller one too when the client asks (`Prefer:
 * respond-async`). 4 MB of YAML is some 20,000 entries: checked and written in seconds.
 */
export const IMPORT_ASYNC_BYTES = 4 * MB;
