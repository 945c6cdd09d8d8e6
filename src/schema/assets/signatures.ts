// Magic bytes: an upload that claims to be an image or a PDF must start like one. Browsers trust the
// served Content-Type (nosniff), so a file of other bytes served as image/png is at best broken and at
// worst a polyglot smuggled past whoever trusts the type; both are refused with a 422. Types not listed
// here (text, SVG, office documents, video…) are not checked; active ones are served sandboxed.

/** How many leading bytes the checks need. */
export const SIGNATURE_BYTES = 64;

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString("latin1");
const startsWith = (head: Buffer, bytes: number[]) => bytes.every((byte, index) => head[index] === byte);

/** ISO base media files (AVIF, HEIC): an `ftyp` box whose major or compatible brands include one of these. */
function hasBrand(head: Buffer, brands: string[]): boolean {
  if (ascii(head, 4, 8) !== "ftyp") return false;
  const boxEnd = Math.min(head.readUInt32BE(0), head.length);
  const found = [ascii(head, 8, 12)];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) found.push(ascii(head, offset, offset + 4));
  return found.some((brand) => brands.includes(brand));
}

const checks: Record<string, { name: string; matches: (head: Buffer) => boolean }> = {
  "image/png": {
    name: "PNG image",
    matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  "image/jpeg": { name: "JPEG image", matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  "image/gif": { name: "GIF image", matches: (h) => ["GIF87a", "GIF89a"].includes(ascii(h, 0, 6)) },
  "image/webp": {
    name: "WebP image",
    matches: (h) => ascii(h, 0, 4) === "RIFF" && ascii(h, 8, 12) === "WEBP",
  },
  "image/avif": { name: "AVIF image", matches: (h) => h.length >= 12 && hasBrand(h, ["avif", "avis"]) },
  "image/heic": {
    name: "HEIC image",
    matches: (h) => h.length >= 12 && hasBrand(h, ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"]),
  },
  "image/bmp": { name: "BMP image", matches: (h) => ascii(h, 0, 2) === "BM" },
  "image/tiff": {
    name: "TIFF image",
    matches: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]),
  },
  "image/vnd.microsoft.icon": { name: "ICO image", matches: (h) => startsWith(h, [0, 0, 1, 0]) },
  "application/pdf": { name: "PDF document", matches: (h) => ascii(h, 0, 5) === "%PDF-" },
};
// Common aliases of the same formats.
checks["image/jpg"] = checks["image/jpeg"] as (typeof checks)[string];
checks["image/pjpeg"] = checks["image/jpeg"] as (typeof checks)[string];
checks["image/x-icon"] = checks["image/vnd.microsoft.icon"] as (typeof checks)[string];
checks["image/x-ms-bmp"] = checks["image/bmp"] as (typeof checks)[string];

/** A problem when `contentType` is a checked format and `head` (the file's first bytes) is not one of it. */
export function signatureProblem(contentType: string, head: Buffer): string | undefined {
  const essence = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const check = checks[essence];
  if (!check || check.matches(head)) return undefined;
  return `the file's content is not a ${check.name}, as the content type ${essence} says`;
}
