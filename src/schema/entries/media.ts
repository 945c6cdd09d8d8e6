// Image and video values.
import type DataLoader from "dataloader";
import { isIdOf, prefixes } from "../ids.ts";
import type { ReferencedAsset } from "../loaders.ts";

type Result = { value: unknown } | { error: string };

export function isAssetId(value: unknown): value is string {
  return typeof value === "string" && isIdOf(value, prefixes.asset);
}

/**
 * An image is sent as an asset ID, a filename, `path/filename` or `/assets/path/filename`. An asset ID
 * must name an asset of the account and is stored as is, so that the value follows the asset when it
 * moves (see `resolveImages`); the others are stored as the URL path `/assets/path/filename`.
 */
export async function imageValue(
  raw: unknown,
  assets: DataLoader<string, ReferencedAsset | null>,
): Promise<Result> {
  const trimmed = typeof raw === "string" ? raw.trim() : raw;
  if (!isAssetId(trimmed)) return imagePath(raw);
  const asset = await assets.load(trimmed);
  return asset ? { value: asset.id } : { error: `no asset with ID '${trimmed}'` };
}

/** A filename, `path/filename` or `/assets/path/filename` as the URL path `/assets/path/filename`. */
export function imagePath(raw: unknown): Result {
  if (typeof raw !== "string" || raw.trim() === "") return { error: "must be an asset ID, filename or path" };
  const path = raw
    .trim()
    .replace(/^\/+/, "")
    .replace(/^assets\//, "");
  const parts = path.split("/");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (parts.some((part) => part === "" || part === "." || part === ".." || /[\u0000-\u001f\\]/.test(part))) {
    return { error: "must be a file path without empty, '.' or '..' segments" };
  }
  return { value: `/assets/${parts.join("/")}` };
}

const youtube = /(?:youtube\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/)|youtu\.be\/)([\w-]{6,})/;
const vimeo = /vimeo\.com\/(?:video\/)?(\d+)/;

/** A video is sent as a URL or {url, video_id, thumbnail} and returned as the object. */
export function videoValue(raw: unknown): Result {
  if (typeof raw === "string") {
    if (!/^https?:\/\/\S+$/.test(raw)) return { error: "must be an http(s) URL" };
    const youtubeId = youtube.exec(raw)?.[1];
    const videoId = youtubeId ?? vimeo.exec(raw)?.[1] ?? null;
    const thumbnail = youtubeId ? `https://img.youtube.com/vi/${youtubeId}/hqdefault.jpg` : null;
    return { value: { url: raw, video_id: videoId, thumbnail } };
  }
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const { url, video_id: videoId = null, thumbnail = null } = raw as Record<string, unknown>;
    if (typeof url !== "string") return { error: "must have a `url` string" };
    if (videoId !== null && typeof videoId !== "string") return { error: "`video_id` must be a string" };
    if (thumbnail !== null && typeof thumbnail !== "string") return { error: "`thumbnail` must be a string" };
    return { value: { url, video_id: videoId, thumbnail } };
  }
  return { error: "must be a URL or {url, video_id, thumbnail}" };
}
