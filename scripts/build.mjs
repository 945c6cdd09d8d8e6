// `npm run build` (run by `npm start`): the server and the CLI as two ES modules under dist/, with their
// dependencies bundled in. Running built files instead of the TypeScript sources through tsx saves the
// loader's memory (about 75 MB) and its start-up; bundling the dependencies saves Node resolving and
// loading some 1,100 files of node_modules one by one (a CLI call took 1.3 s, 0.65 s bundled; the server
// answers 0.7 s sooner). Dynamic imports become chunks of their own under dist/chunks/, loaded only when
// reached: GraphiQL's page (9 MB) and the query compiler of the one database in use (2.5 MB each).
// Left to node_modules: better-sqlite3 (a native addon found beside its own files), pg's optional
// pg-native, and swagger-ui-dist, whose files are served from its directory (src/http/package-files.ts).
// `node scripts/build.mjs [outdir]`: the tests build into a folder of each run's own (test/helpers/build.ts).
//
// A server that is running when dist/ is built again (every `npm start` builds) may still load a chunk of
// its own build later. So the build is written aside and moved in file by file (a rename: a reader sees the
// old file or the new one, never half of one), and the chunks of the previous build are kept beside the
// new ones: a chunk is named by its content, so only a changed one differs, and older ones are removed.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const outdir = process.argv[2] ?? "dist";
const chunksDir = join(outdir, "chunks");
mkdirSync(chunksDir, { recursive: true });
const staging = mkdtempSync(join(outdir, ".build-"));

try {
  await build({
    entryPoints: {
      main: "src/main.ts",
      cms: "src/cli/cms.ts",
      // Worker threads start from entries of their own: the import's YAML reader
      // (src/schema/import/read-in-worker.ts) and the site's renderer (src/render/render-pool.ts).
      "import-worker": "src/schema/import/parse-worker.ts",
      "render-worker": "src/render/render-worker.ts",
    },
    outdir: staging,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "pg-native", "swagger-ui-dist"],
    // The CommonJS packages bundled into an ES module still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: "warning",
  });
  // Chunks first: the entry files that import them are moved in last.
  const chunks = readdirSync(join(staging, "chunks"));
  for (const file of chunks) renameSync(join(staging, "chunks", file), join(chunksDir, file));
  for (const file of readdirSync(staging)) {
    if (file !== "chunks") renameSync(join(staging, file), join(outdir, file));
  }
  keepTwoBuilds(chunks);
} finally {
  rmSync(staging, { recursive: true, force: true });
}

/** Removes the chunks that are neither this build's nor the previous one's (listed in builds.json). */
function keepTwoBuilds(current) {
  const list = join(chunksDir, "builds.json");
  let previous = [];
  try {
    previous = JSON.parse(readFileSync(list, "utf8")).current ?? [];
  } catch {}
  const kept = new Set([...current, ...previous, "builds.json"]);
  for (const file of readdirSync(chunksDir)) if (!kept.has(file)) rmSync(join(chunksDir, file));
  writeFileSync(list, JSON.stringify({ current, previous }));
}
