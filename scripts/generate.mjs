// Generates the Prisma clients (one per provider) and the Pothos types after install. Runs offline:
// prisma.config.ts puts the CLI on its JavaScript engine.
import { execFileSync } from "node:child_process";

const schemas = {
  sqlite: "file::memory:",
  postgresql: "postgresql://127.0.0.1/placeholder",
};
for (const [provider, url] of Object.entries(schemas)) {
  execFileSync(
    process.execPath,
    ["node_modules/prisma/build/index.js", "generate", "--schema", `prisma/${provider}/schema.prisma`],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        PATH: `${process.cwd()}/node_modules/.bin:${process.env.PATH}`,
        DATABASE_URL: url,
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    },
  );
}
