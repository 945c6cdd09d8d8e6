// The build (scripts/build.mjs) under a running server: every `npm start` builds dist/ again, while other
// processes started from it may still load a chunk of their own build (GraphiQL's page is one, loaded on
// its first visit). A rebuild replaces files whole and keeps the previous build's chunks; older ones go.
// And the CLI's launcher (scripts/cms.mjs): it builds dist/ when the bundle is missing or stale, only then.
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
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

describe("the CLI's launcher (scripts/cms.mjs, `npm run cms`)", () => {
  // A checkout of its own: the launcher, a stand-in build script that writes a bundle saying which build it
  // is, and one source file. What is tested is when the launcher builds, not the build.
  let checkout: string;
  const launch = (...args: string[]) =>
    run(process.execPath, [join(checkout, "scripts/cms.mjs"), ...args], { cwd: checkout }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  const builds = () => Number(readFileSync(join(checkout, "builds.txt"), "utf8"));
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
  /** What the launcher ran: the bundle of which build, with which arguments. */
  const ran = (stdout: string) => JSON.parse(stdout) as { bundle: number; args: string[] };
  const standInBuild = [
    'import { mkdirSync, readFileSync, writeFileSync } from "node:fs";',
    'if (process.env.BUILD_FAILS) { console.error("a syntax error"); process.exit(1); }',
    'const n = Number(readFileSync("builds.txt", "utf8")) + 1;',
    'writeFileSync("builds.txt", String(n));',
    'mkdirSync("dist", { recursive: true });',
    'writeFileSync("dist/cms.mjs", "console.log(JSON.stringify({ bundle: " + n + ", args: process.argv.slice(2) }));\\n");',
    'console.log("stdout of the build");',
  ];

  beforeAll(() => {
    checkout = mkdtempSync(join(tmpdir(), "cms-launcher-"));
    mkdirSync(join(checkout, "scripts"));
    mkdirSync(join(checkout, "src", "cli"), { recursive: true });
    copyFileSync(join(root, "scripts/cms.mjs"), join(checkout, "scripts/cms.mjs"));
    writeFileSync(join(checkout, "package.json"), "{}");
    writeFileSync(join(checkout, "src/cli/cms.ts"), "// the sources\n");
    writeFileSync(join(checkout, "builds.txt"), "0");
    writeFileSync(join(checkout, "scripts/build.mjs"), standInBuild.join("\n"));
    // Sources older than anything built below.
    for (const file of ["package.json", "src/cli/cms.ts", "scripts/build.mjs"])
      utimesSync(join(checkout, file), ago(60), ago(60));
  });
  afterAll(() => rmSync(checkout, { recursive: true, force: true }));

  it("builds a missing bundle first, its output on stderr, then runs it with the arguments", async () => {
    const first = await launch("account", "list");
    expect(ran(first.stdout)).toEqual({ bundle: 1, args: ["account", "list"] });
    expect(first.stderr).toContain("cms: building dist/ (not built yet)");
    expect(first.stderr).toContain("stdout of the build");
  });

  it("runs a fresh bundle without building", async () => {
    const again = await launch("mcp", "--token", "t");
    expect(ran(again.stdout)).toEqual({ bundle: 1, args: ["mcp", "--token", "t"] });
    expect(again.stderr).toBe("");
    expect(builds()).toBe(1);
  });

  it("builds again when a source file, the build script or package.json is newer than the bundle", async () => {
    for (const [index, file] of ["src/cli/cms.ts", "scripts/build.mjs", "package.json"].entries()) {
      utimesSync(join(checkout, "dist/cms.mjs"), ago(30), ago(30));
      utimesSync(join(checkout, file), ago(10), ago(10));
      const stale = await launch("--help");
      expect(stale.stderr, file).toContain("cms: building dist/ (the sources changed)");
      expect(ran(stale.stdout), file).toEqual({ bundle: index + 2, args: ["--help"] });
      expect((await launch("--help")).stderr, file).toBe("");
    }
  });

  it("runs the previous bundle when a build fails, and exits 1 when there is none", async () => {
    utimesSync(join(checkout, "dist/cms.mjs"), ago(30), ago(30));
    utimesSync(join(checkout, "src/cli/cms.ts"), ago(10), ago(10));
    const env = { ...process.env, BUILD_FAILS: "1" };
    const failed = await run(process.execPath, [join(checkout, "scripts/cms.mjs"), "doctor"], {
      cwd: checkout,
      env,
    });
    expect(ran(failed.stdout)).toEqual({ bundle: 4, args: ["doctor"] });
    expect(failed.stderr).toContain("cms: the build failed (see above); running the previous build");
    rmSync(join(checkout, "dist"), { recursive: true });
    const none = await run(process.execPath, [join(checkout, "scripts/cms.mjs"), "doctor"], {
      cwd: checkout,
      env,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(none).toMatchObject({ code: 1, stdout: "" });
    expect(none.stderr).toContain("cms: the build failed (see above); `npm run build` tries again");
  });
});
