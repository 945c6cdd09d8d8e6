// An asset's content type: the one declared with the upload, else the one its filename extension names,
// else application/octet-stream (which, declared, also counts as "unknown").
import { z } from "zod";

export const UNKNOWN_TYPE = "application/octet-stream";

const byExtension: Record<string, string> = {
  // Images
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jfif: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  avif: "image/avif",
  heic: "image/heic",
  ico: "image/vnd.microsoft.icon",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
  // Documents
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  rtf: "application/rtf",
  txt: "text/plain",
  csv: "text/csv",
  md: "text/markdown",
  json: "application/json",
  xml: "application/xml",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  zip: "application/zip",
  gz: "application/gzip",
  // Video
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  ogv: "video/ogg",
  avi: "video/x-msvideo",
  mkv: "video/x-matroska",
  // Audio
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  wav: "audio/wav",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/opus",
  flac: "audio/flac",
  // Fonts
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
};

export function typeFromFilename(filename: string): string {
  const dot = filename.lastIndexOf(".");
  const extension = dot > 0 ? filename.slice(dot + 1).toLowerCase() : "";
  return byExtension[extension] ?? UNKNOWN_TYPE;
}

/** The declared type when it says something, else the filename's. */
export function contentTypeFor(filename: string, declared: string | null | undefined): string {
  return declared && declared !== UNKNOWN_TYPE ? declared : typeFromFilename(filename);
}

const token = "[A-Za-z0-9!#$&^_.+-]+";
// Quoted values in printable ASCII but `"`, `;` and `\`: a header carries nothing else safely.
const mediaType = new RegExp(`^${token}/${token}(?:\\s*;\\s*${token}=(?:${token}|"[ !#-:<-\\[\\]-~]*"))*$`);

/** `type/subtype` with optional parameters; the type and subtype are lowercased. */
export const contentTypeSchema = z
  .string()
  .trim()
  .max(255, "must be at most 255 characters")
  .regex(mediaType, "must be a media type such as image/png")
  .transform((value) => {
    const [essence = "", ...parameters] = value.split(";");
    return [essence.trim().toLowerCase(), ...parameters.map((parameter) => parameter.trim())].join("; ");
  });

/**
 * The type a stored asset is served with: its own, when it passes today's check (one stored before a
 * check tightened may hold what a header cannot carry), else a download.
 */
export function servedContentType(stored: string): string {
  return mediaType.test(stored) ? stored : UNKNOWN_TYPE;
}

/**
 * Types a browser shows without running anything the file says. Every other type (HTML, SVG, any XML
 * such as `application/atom+xml` or `text/xsl`, script, and types nobody listed) is served sandboxed, so
 * an upload never runs with the site's powers.
 */
const passiveContent =
  /^(?:(?:image\/(?!svg\b)|audio\/|video\/|font\/)[^;]*|application\/(?:pdf|json|zip|gzip|octet-stream)|text\/(?:plain|css|csv|markdown|calendar|vtt))(?:;|$)/;

export function isActiveContent(contentType: string): boolean {
  return !passiveContent.test(contentType.trim().toLowerCase());
}
