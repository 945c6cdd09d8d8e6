import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Servers and CLI calls start from a build made once per run (test/helpers/build.ts).
    globalSetup: ["test/helpers/build.ts"],
    // Each file starts its own server and database; two at a time suit a 2-core machine.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
