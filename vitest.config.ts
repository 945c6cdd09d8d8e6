import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that use no database of the run's kind (units, the build, SQLite's own adapter whatever the run's
 * kind): the PostgreSQL pass (TEST_DATABASE=postgres) would only run them a second time, unchanged.
 */
const databaseFree = [
  "build",
  "config",
  "dependencies",
  "docs-links",
  "held-relations",
  "import-fast-parse",
  "sqlite-transactions",
  "storage-list",
  "template-cache",
  "test-command",
].map((name) => `test/${name}.test.ts`);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE === "postgres" ? databaseFree : [])],
    // Servers and CLI calls start from a build made once per run (test/helpers/build.ts), and each fresh
    // database as a copy of one migrated once per run (test/helpers/migrated-templates.ts).
    globalSetup: ["test/helpers/build.ts", "test/helpers/migrated-templates.ts"],
    // Each file starts its own server and database; two at a time suit a 2-core machine.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
