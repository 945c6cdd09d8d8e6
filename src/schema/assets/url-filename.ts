// The filename of a download whose caller named none: the URL path's last segment, percent-decoded, when
// it is a valid filename (names.ts); else "download".
import { filenameSchema } from "./names.ts";

export const FALLBACK_FILENAME = "download";

export function filenameFromUrl(url: string): string {
  let segment: string;
  try {
    segment = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    return FALLBACK_FILENAME;
  }
  const parsed = filenameSchema.safeParse(segment);
  return parsed.success ? parsed.data : FALLBACK_FILENAME;
}
