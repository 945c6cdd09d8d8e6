// A setup mistake (a bad setting, a database out of reach, a port in use, a data directory that cannot
// be written) stops the server and the CLI with one line naming the setting: the stack of a mistake in
// the environment only hides the line that says what to change.
import { accessSync, constants, mkdirSync } from "node:fs";

/** A message for the operator that names the setting to change. */
export class SetupError extends Error {}

/** Runs a settings loader; what it throws is about a setting, so it becomes a SetupError. */
export function readSettings<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw new SetupError(oneLine(error));
  }
}

/** Creates the directory when missing and checks this process can write in it. */
export function writableDirectory(dir: string, setting: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code === "EEXIST" ? "it is a file" : systemCause(error);
    throw new SetupError(`${setting}: cannot write in ${dir} (${cause})`);
  }
}

/** "EACCES: permission denied, mkdir '/x'" → "permission denied". */
export function systemCause(error: unknown): string {
  const message = oneLine(error);
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/** Prints the one line on stderr and exits 1; anything else that stopped start-up is shortened to one line too. */
export function exitOnSetupError(error: unknown): never {
  const message = error instanceof SetupError ? error.message : `could not start: ${oneLine(error)}`;
  process.stderr.write(`cms: ${message}\n`);
  process.exit(1);
}

export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
