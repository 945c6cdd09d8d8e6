// The data directory is its owner's alone: it holds the embedded database (webhook secrets, token hashes,
// every account's drafts, the preview signing key) and every uploaded file. It is made 0700 and the
// database's files 0600 at each start, so that an installation made before (0755 and 0644, the umask's
// usual modes) is closed too; what is created inside a 0700 directory is out of other users' reach
// whatever its own mode. A directory or file this user does not own (a volume mounted so) is left as it is.
import { chmodSync, existsSync, mkdirSync } from "node:fs";

export const PRIVATE_DIRECTORY = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates `dir` when missing, and makes it readable by its owner only. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY });
  restrict(dir, PRIVATE_DIRECTORY);
}

/** The SQLite database at `file` and its companions (WAL and shared memory): owner-only, those that exist. */
export function privateDatabaseFiles(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) restrict(path, PRIVATE_FILE);
}

function restrict(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  }
}
