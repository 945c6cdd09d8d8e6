// vitest's global setup: the server and the CLI built once per run (scripts/build.mjs) into a folder of this
// run's own, which test servers and CLI calls start from (CMS_TEST_BUILD). Starting the bundle costs about
// 1.5 s of CPU less than loading the TypeScript sources through tsx, for each of the hundreds of processes a
// run starts; the folder of its own keeps a second run at the same time from rewriting the files this one
// is starting.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;

export default function setup(): () => void {
  // Below the project, so that the bundle finds node_modules and package.json as dist/ does.
  mkdirSync(join(root, "dist"), { recursive: true });
  const outdir = mkdtempSync(join(root, "dist", "test-"));
  execFileSync(process.execPath, [join(root, "scripts/build.mjs"), outdir], { cwd: root, stdio: "inherit" });
  process.env.CMS_TEST_BUILD = outdir;
  return () => rmSync(outdir, { recursive: true, force: true });
}
