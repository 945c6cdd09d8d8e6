// The upload size limit (CMS_UPLOAD_LIMIT): 413 with the documented error body past it.
import { ApiError } from "../errors.ts";

const MB = 1024 * 1024;

export function uploadTooLarge(path: string, limit: number): ApiError {
  const size = limit % MB === 0 ? `${limit / MB} MB` : `${limit} bytes`;
  return new ApiError(413, "Upload too large", [{ path, message: `must be at most ${size}` }]);
}
