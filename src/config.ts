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
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? "0.0.0.0",
    dataDir: resolve(env.CMS_DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    jsonBodyLimit: 2 * 1024 * 1024,
  };
}
