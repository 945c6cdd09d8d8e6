#!/usr/bin/env node
// `npm run cms` and `node scripts/cms.mjs` (the package's `cms` bin): the CLI from its bundle, dist/cms.mjs,
// built first when it is missing or older than a source. Node starts the bundle in well under a second;
// the TypeScript sources through a loader took 3 s warm and 18 s cold, which an assistant starting
// `cms mcp` waited through. The check is a stat of each source file (a few milliseconds); a build takes a
// few seconds and writes dist/ as `npm run build` does (scripts/build.mjs), its output on stderr so that
// stdout stays the command's answer (or the MCP protocol).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = join(root, "dist", "cms.mjs");

/** When the file was last changed, in ms; 0 when it does not exist. */
function changed(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest change to what the bundle is made of: the sources, the build script and the installed packages. */
function newestSource() {
  let newest = Math.max(
    ...["scripts/build.mjs", "package.json", "package-lock.json", "node_modules/.package-lock.json"].map(
      (file) => changed(join(root, file)),
    ),
  );
  for (const entry of readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, changed(join(entry.parentPath ?? entry.path, entry.name)));
  }
  return newest;
}

const built = changed(bundle);
if (built === 0 || built < newestSource()) {
  process.stderr.write(`cms: building dist/ (${built === 0 ? "not built yet" : "the sources changed"})\n`);
  try {
    execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], {
      cwd: root,
      stdio: ["ignore", 2, 2],
    });
  } catch {
    if (built === 0) {
      process.stderr.write("cms: the build failed (see above); `npm run build` tries again\n");
      process.exit(1);
    }
    process.stderr.write("cms: the build failed (see above); running the previous build\n");
  }
}
await import(pathToFileURL(bundle).href);
