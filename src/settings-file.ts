// The settings file: `.env` in the working directory, read by the server and the CLI alike (both run in
// the checkout under `npm start` and `npm run cms`), so that a CLI run in a shell without the server's
// DATABASE_URL still finds the server's database. Its variables go into process.env, where every part
// reads them (the S3 client its AWS_* ones too); a variable the real environment sets, even to an empty
// value, keeps the real value, as with Node's own --env-file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { systemCause } from "./setup-errors.ts";

export const SETTINGS_FILE = ".env";

export interface SettingsFile {
  path: string;
  /** The variables taken from it (those the real environment did not set). */
  names: string[];
}

/** Reads `dir`/.env into `env`; undefined when there is no such file. Unreadable, it is a setup error. */
export function loadSettingsFile(
  dir: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): SettingsFile | undefined {
  const path = join(dir, SETTINGS_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the settings file ${path} (${systemCause(error)})`);
  }
  const names: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (name in env || value === undefined) continue;
    env[name] = value;
    names.push(name);
  }
  return { path, names };
}
