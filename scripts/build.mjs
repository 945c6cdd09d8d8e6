// `npm run build` (run by `npm start`): the server and the CLI as two ES modules under dist/, with their
// dependencies bundled in. Running built files instead of the TypeScript sources through tsx saves the
// loader's memory (about 75 MB) and its start-up; bundling the dependencies saves Node resolving and
// loading some 1,100 files of node_modules one by one (a CLI call took 1.3 s, 0.65 s bundled; the server
// answers 0.7 s sooner). Dynamic imports become chunks of their own under dist/chunks/, loaded only when
// reached: GraphiQL's page (9 MB) and the query compiler of the one database in use (2.5 MB each).
// Left to node_modules: better-sqlite3 (a native addon found beside its own files), pg's optional
// pg-native, and swagger-ui-dist, whose files are served from its directory (src/http/package-files.ts).
// `node scripts/build.mjs [outdir]`: the tests build into a folder of each run's own (test/helpers/build.ts).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const outdir = process.argv[2] ?? "dist";
// Chunks are named by their content: an earlier build's would pile up beside this one's.
rmSync(join(outdir, "chunks"), { recursive: true, force: true });

await build({
  entryPoints: { main: "src/main.ts", cms: "src/cli/cms.ts" },
  outdir,
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
