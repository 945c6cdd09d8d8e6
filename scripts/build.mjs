// `npm run build` (run by `npm start`): the server and the CLI as two ES modules under dist/, with the
// dependencies left to node_modules. Running the built files instead of the TypeScript sources through
// tsx saves the loader's memory (about 75 MB) and its start-up.
// `node scripts/build.mjs [outdir]`: the tests build into a folder of each run's own (test/helpers/build.ts).
import { build } from "esbuild";

await build({
  entryPoints: { main: "src/main.ts", cms: "src/cli/cms.ts" },
  outdir: process.argv[2] ?? "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
