// The bytes of a new asset: base64 `data` (JSON uploads) is checked against the upload limit (the base64
// text counts, decisions.md), decoded strictly and staged; a multipart upload arrives already staged.
import { Readable } from "node:stream";
import type { StagedFile } from "../../storage/storage.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { contentTypeSchema } from "./content-types.ts";
import { uploadTooLarge } from "./limits.ts";

export interface UploadBytes {
  staged: StagedFile;
  /** The content type a data: URL declared, if any. */
  declaredType?: string;
}

const dataUrl = /^data:([^,]*);base64,/i;
const standard = /^[A-Za-z0-9+/]*={0,2}$/;
const urlSafe = /^[A-Za-z0-9_-]*={0,2}$/;

export async function uploadBytes(
  ctx: Context,
  input: { data?: string | null; upload?: string | null },
): Promise<UploadBytes> {
  const { data, upload } = input;
  if (data != null && upload != null) throw ApiError.invalid("data", "send either data or a file, not both");
  if (upload != null) {
    const size = ctx.stagedUploads.has(upload) ? await ctx.storage.stagedSize(upload) : undefined;
    if (size === undefined) throw ApiError.invalid("file", "is not a file uploaded with this request");
    if (size > ctx.uploadLimit) throw uploadTooLarge("file", ctx.uploadLimit);
    return { staged: { id: upload, size } };
  }
  if (data == null) throw ApiError.invalid("data", "is required: the file's bytes in base64");
  if (data.length > ctx.uploadLimit) throw uploadTooLarge("data", ctx.uploadLimit);
  const prefix = dataUrl.exec(data);
  const declared = prefix ? contentTypeSchema.safeParse(prefix[1]) : undefined;
  const bytes = decodeBase64(prefix ? data.slice(prefix[0].length) : data);
  if (!bytes) throw ApiError.invalid("data", "is not valid base64");
  return {
    staged: await ctx.storage.stage(Readable.from([bytes])),
    ...(declared?.success && declared.data !== "" && { declaredType: declared.data }),
  };
}

/** Strict base64 (whitespace such as line breaks is ignored): undefined when it is not base64. */
export function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, "");
  const padded = compact.endsWith("=");
  if (compact.length % 4 === 1 || (padded && compact.length % 4 !== 0)) return undefined;
  if (standard.test(compact)) return Buffer.from(compact, "base64");
  if (urlSafe.test(compact)) return Buffer.from(compact, "base64url");
  return undefined;
}
