// Multipart uploads (content-api.md, "Assets", method 1): parts `file` (required) and `path` (optional
// folder); `filename` and `content_type` text parts may override the file part's own. The body is
// streamed: the file part goes straight to a staged file in the storage, never whole into memory. What
// the upload means (names, types, the asset row) is the schema's business; this only moves bytes.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Busboy, type BusboyFileStream, type BusboyInstance } from "@fastify/busboy";
import { limitedChunks } from "../http/limited-body.ts";
import { uploadTooLarge } from "../schema/assets/limits.ts";
import { ApiError } from "../schema/errors.ts";
import type { Storage } from "../storage/storage.ts";

export interface MultipartUpload {
  /** The staged file's reference, for the mutation's `upload` input; the caller discards it after. */
  staged: string;
  /** The schema's `AssetCreateInput` fields, as far as the body gave them. */
  input: Record<string, string>;
}

/** Room for the part headers and the small text parts besides the file (or the JSON around base64). */
export const ENVELOPE = 64 * 1024;
const textParts = new Set(["path", "filename", "content_type"]);

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
}

export async function readMultipartUpload(
  request: Request,
  storage: Storage,
  limit: number,
): Promise<MultipartUpload> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit + ENVELOPE) throw uploadTooLarge("file", limit);

  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      preservePath: true,
      isPartAFile: (name) => name === "file",
      limits: { fileSize: limit, files: 1, fields: 10, parts: 20, fieldSize: 4096 },
    });
  } catch {
    throw malformed("has no multipart boundary");
  }

  const fields: Record<string, string> = {};
  let file: { stream: BusboyFileStream; filename: string | undefined; type: string } | undefined;
  let staging: Promise<string> | undefined;
  let failure: Error | undefined;
  const max = limit + ENVELOPE;
  const source = Readable.from(limitedChunks(request.body, max, () => uploadTooLarge("file", limit), max));
  const fail = (error: Error) => {
    failure ??= error;
    file?.stream.destroy(failure);
    source.destroy(failure);
  };

  parser.on("file", (_name, stream, filename, _encoding, type) => {
    file = { stream, filename, type };
    stream.on("limit", () => fail(uploadTooLarge("file", limit)));
    staging = storage.stage(stream).then((staged) => staged.id);
    // Seen (and handled) below, once the whole body has been read.
    staging.catch(() => {});
  });
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (!textParts.has(name)) return;
    if (valueTruncated) fail(ApiError.invalid(name, "is too long"));
    else fields[name] = value;
  });
  parser.on("filesLimit", () => fail(ApiError.invalid("file", "only one file may be sent")));

  try {
    await pipeline(source, parser);
  } catch (error) {
    fail(error instanceof ApiError ? error : malformed("could not be read as multipart/form-data"));
  }
  const staged = await staging?.catch((error: unknown) => {
    fail(error instanceof ApiError ? error : malformed("could not be read"));
    return undefined;
  });
  if (failure) {
    if (staged) await storage.discard(staged);
    throw failure;
  }
  if (!staged || !file) throw ApiError.invalid("file", "is required: send the file in a part named `file`");
  const input: Record<string, string> = {};
  if (file.filename !== undefined) input.filename = file.filename;
  // Busboy reports a part without a Content-Type as text/plain (RFC 7578's default).
  input.content_type = file.type;
  return { staged, input: { ...input, ...fields } };
}

function malformed(message: string): ApiError {
  return new ApiError(400, "Malformed multipart body", [{ path: "body", message }]);
}
