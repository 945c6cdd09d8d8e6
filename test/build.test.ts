// The build (scripts/build.mjs) under a running server: every `npm start` builds dist/ again, while other
// processes started from it may still load a chunk of their own build (GraphiQL's page is one, loaded on
// its first visit). A rebuild replaces files whole and keeps the previous build's chunks; older ones go.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./helpers/server.ts";

const root = new URL("..", import.meta.url).pathname;
const run = promisify(execFile);
const build = (outdir: string) =>
  run(process.execPath, [join(root, "scripts/build.mjs"), outdir], { cwd: root });

const builds = (outdir: string) =>
  JSON.parse(readFileSync(join(outdir, "chunks", "builds.json"), "utf8")) as {
    current: string[];
    previous: string[];
  };

let outdir: string;
let server: TestServer;

beforeAll(async () => {
  // Below the project, as dist/ is: the bundle finds node_modules and package.json from there.
  outdir = mkdtempSync(join(root, "dist", "build-test-"));
  await build(outdir);
  // The server starts from this build (helpers/server.ts `builtOrSource`); the run's own is put back.
  const testBuild = process.env.CMS_TEST_BUILD;
  process.env.CMS_TEST_BUILD = outdir;
  try {
    server = await startServer();
  } finally {
    if (testBuild === undefined) delete process.env.CMS_TEST_BUILD;
    else process.env.CMS_TEST_BUILD = testBuild;
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(outdir, { recursive: true, force: true });
});

describe("building dist/ again", () => {
  it("leaves a running server able to load its chunks, during the build and after it", async () => {
    const rebuilt = build(outdir);
    let done = false;
    void rebuilt.finally(() => (done = true));
    // Until the build has begun writing: its folder aside, or (as an earlier build did) chunks removed.
    const writing = () =>
      readdirSync(outdir).some((name) => name.startsWith(".build-")) ||
      !existsSync(join(outdir, "chunks", "builds.json"));
    while (!done && !writing()) await new Promise((resolve) => setTimeout(resolve, 5));
    const statuses: number[] = [];
    // The first visit loads GraphiQL's chunk: while the build writes, and after.
    do {
      const response = await fetch(`${server.url}/graphql`, { headers: { Accept: "text/html" } });
      const page = await response.text();
      statuses.push(response.status);
      expect(response.status, page.slice(0, 300)).toBe(200);
      expect(page).toContain("<title>");
    } while (!done);
    await rebuilt;
    expect(statuses.length).toBeGreaterThan(0);
    expect(readdirSync(outdir).filter((name) => name.startsWith(".build-"))).toEqual([]);
  }, 60_000);

  it("keeps the previous build's chunks and removes older ones", async () => {
    // A chunk only an earlier build had (a chunk is named by its content: an edit renames it).
    const planted = "planted-OLDBUILD.mjs";
    writeFileSync(join(outdir, "chunks", planted), "export {};\n");
    const before = builds(outdir);
    writeFileSync(
      join(outdir, "chunks", "builds.json"),
      JSON.stringify({ current: [...before.current, planted], previous: before.previous }),
    );

    await build(outdir);
    expect(existsSync(join(outdir, "chunks", planted))).toBe(true);
    expect(builds(outdir).previous).toContain(planted);
    for (const chunk of builds(outdir).current) expect(existsSync(join(outdir, "chunks", chunk))).toBe(true);

    await build(outdir);
    expect(existsSync(join(outdir, "chunks", planted))).toBe(false);
    expect(readdirSync(join(outdir, "chunks")).sort()).toEqual(
      [...builds(outdir).current, "builds.json"].sort(),
    );
  }, 60_000);
});
