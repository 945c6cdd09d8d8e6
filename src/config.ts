// Runtime settings, read once from the environment (decisions.md, "Running the service").
import { resolve } from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgresql://… selects PostgreSQL; otherwise the embedded database under dataDir. */
  databaseUrl: string | undefined;
  /** Largest JSON body accepted, in bytes. */
  jsonBodyLimit: number;
  /** Largest uploaded file, in bytes (CMS_UPLOAD_LIMIT); for JSON uploads, the base64 text counts. */
  uploadLimit: number;
}

export const DEFAULT_UPLOAD_LIMIT = 25 * 1024 * 1024;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? "0.0.0.0",
    dataDir: resolve(env.CMS_DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    jsonBodyLimit: 2 * 1024 * 1024,
    uploadLimit: byteCount(env.CMS_UPLOAD_LIMIT, "CMS_UPLOAD_LIMIT", DEFAULT_UPLOAD_LIMIT),
  };
}

function byteCount(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const bytes = Number(value);
  // File sizes are stored as 32-bit integers.
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 2 ** 31 - 1)
    throw new Error(`${name} must be a whole number of bytes, at most 2147483647`);
  return bytes;
}
