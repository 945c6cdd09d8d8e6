// Asset names: a filename and a folder path, both normalised (trimmed, Unicode NFC, a folder's repeated
// and trailing `/` collapsed) and refused when unsafe. The public URL is `/assets/<path>/<filename>` with
// each segment percent-encoded, so any accepted name makes a valid URL.
import { z } from "zod";

export const FILENAME_MAX = 255;
export const PATH_MAX = 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const control = /[\u0000-\u001f\u007f]/;

/** Problems with one name segment (a filename, or one folder of a path). */
function segmentProblem(segment: string): string | undefined {
  if (segment === "." || segment === "..") return "must not be '.' or '..'";
  if (control.test(segment)) return "must not contain control characters";
  if (segment.includes("\\")) return "must not contain '\\'";
  if (Buffer.byteLength(segment) > FILENAME_MAX) return `must be at most ${FILENAME_MAX} bytes per name`;
  return undefined;
}

export const filenameSchema = z
  .string()
  .transform((value) => value.normalize("NFC").trim())
  .superRefine((value, ctx) => {
    const problem =
      value === ""
        ? "must not be empty"
        : value.includes("/")
          ? "must not contain '/' (send the folder as `path`)"
          : segmentProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A folder path: "" is the root; "images/2024" a nested folder. */
export const pathSchema = z
  .string()
  .transform((value) => value.normalize("NFC").trim())
  .superRefine((value, ctx) => {
    const problem = folderProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform(normaliseFolder);

function folderProblem(value: string): string | undefined {
  if (value.startsWith("/")) return "must be relative (no leading '/')";
  if (/^[A-Za-z]:/.test(value)) return "must be relative (no drive letter)";
  if (Buffer.byteLength(value) > PATH_MAX) return `must be at most ${PATH_MAX} bytes`;
  for (const segment of value.split("/")) {
    if (segment === "") continue;
    if (segment.trim() !== segment) return "folder names must not start or end with spaces";
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

function normaliseFolder(value: string): string {
  return value
    .split("/")
    .filter((segment) => segment !== "")
    .join("/");
}

/** `/assets/<path>/<filename>`, or `/assets/<filename>` at the root, each segment percent-encoded. */
export function assetUrl(asset: { path: string; filename: string }): string {
  const segments = [...(asset.path === "" ? [] : asset.path.split("/")), asset.filename];
  return `/assets/${segments.map(encodeURIComponent).join("/")}`;
}

/**
 * The folder and filename a URL path below `/assets/` names (segments percent-decoded), or undefined when
 * it cannot name an asset.
 */
export function parseAssetPath(rest: string): { path: string; filename: string } | undefined {
  let segments: string[];
  try {
    segments = rest.split("/").map((segment) => decodeURIComponent(segment).normalize("NFC"));
  } catch {
    return undefined;
  }
  // A name with a control character or backslash can never be stored: no need to look it up (and NUL
  // is text PostgreSQL cannot even compare).
  if (segments.some((segment) => control.test(segment) || segment.includes("\\"))) return undefined;
  const filename = segments.pop();
  if (!filename || segments.some((segment) => segment === "")) return undefined;
  return { path: segments.join("/"), filename };
}
