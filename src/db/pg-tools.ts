// PostgreSQL's own dump and restore tools (pg_dump, pg_restore), run as child processes: a dump in the
// custom format is one consistent snapshot taken while the server keeps writing. When a tool is missing
// or fails, the error says so in one line (the URL, which may hold a password, never appears).
import { spawn } from "node:child_process";
import { SetupError } from "../setup-errors.ts";

const INSTALL_HINT =
  "install the PostgreSQL client tools of the server's major version or newer (Debian: postgresql-client)";

function runTool(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new SetupError(
          error.code === "ENOENT"
            ? `${tool} is not on PATH: on PostgreSQL the database is copied by ${tool}; ${INSTALL_HINT}`
            : `${tool} could not run (${error.message})`,
        ),
      ),
    );
    child.on("exit", (code) => {
      if (code === 0) return resolve();
      const said =
        stderr
          .trim()
          .split("\n")[0]
          ?.replace(/postgres(ql)?:\/\/\S+/g, "DATABASE_URL") ?? "";
      reject(new SetupError(`${tool} failed (exit ${code}): ${said || "no message"}`));
    });
  });
}

/** The whole database into `file` (custom format: compressed, restorable with pg_restore). */
export function pgDump(url: string, file: string): Promise<void> {
  return runTool("pg_dump", [
    "--format=custom",
    "--no-owner",
    "--no-privileges",
    `--file=${file}`,
    `--dbname=${url}`,
  ]);
}

/** A dump into an empty database, all or nothing. */
export function pgRestore(url: string, file: string): Promise<void> {
  return runTool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--dbname=${url}`,
    file,
  ]);
}
