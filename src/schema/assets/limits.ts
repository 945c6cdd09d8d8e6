// The upload size limit (CMS_UPLOAD_LIMIT): 413 with the documented error body past it.
import { ApiError } from "../errors.ts";

const MB = 1024 * 1024;
const GB = 1024 * MB;

export function uploadTooLarge(path: string, limit: number): ApiError {
  return new ApiError(413, "Upload too large", [{ path, message: `must be at most ${sizeText(limit)}` }]);
}

/** A limit as its messages and documents name it. */
export function sizeText(bytes: number): string {
  if (bytes % GB === 0) return `${bytes / GB} GB`;
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`;
}
