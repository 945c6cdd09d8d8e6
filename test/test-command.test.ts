// `npm run test:all` (scripts/test-all.sh) runs every step and reports each: a failure on the embedded
// database once stopped the script before the PostgreSQL half ran. Run here in a copy of its own, with
// stand-ins for the services script and for `npx` (tsc, biome, vitest) that log what they were asked.
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
let checkout: string;

/** Runs the script; `FAIL` names the steps that fail, e.g. "vitest-sqlite tsc". */
function testAll(fail: string): Promise<{ code: number; stdout: string; calls: string[] }> {
  const calls = join(checkout, "calls.txt");
  writeFileSync(calls, "");
  return new Promise((resolve) => {
    execFile(
      "bash",
      [join(checkout, "scripts/test-all.sh")],
      { env: { PATH: `${join(checkout, "bin")}:${process.env.PATH}`, FAIL: fail, CALLS: calls } },
      (error, stdout) =>
        resolve({
          code: error ? Number(error.code) : 0,
          stdout,
          calls: readFileSync(calls, "utf8").trim().split("\n"),
        }),
    );
  });
}

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), "cms-test-all-"));
  mkdirSync(join(checkout, "scripts"));
  mkdirSync(join(checkout, "bin"));
  copyFileSync(join(root, "scripts/test-all.sh"), join(checkout, "scripts/test-all.sh"));
  writeFileSync(join(checkout, "scripts/test-services.sh"), 'echo "services $FAIL" >> "$CALLS"\n');
  // npx TOOL …: logs the call; vitest prints its count of tests as vitest does; a step named in FAIL fails.
  writeFileSync(
    join(checkout, "bin/npx"),
    `#!/usr/bin/env bash
name=$1
[ "$name" = vitest ] && name="vitest-\${TEST_DATABASE:-sqlite}"
echo "$name $*" >> "$CALLS"
case " $FAIL " in
  *" $name "*)
    [ "\${name%%-*}" = vitest ] && printf '\\n Test Files  1 failed | 9 passed (10)\\n      Tests  2 failed | 98 passed (100)\\n'
    exit 3 ;;
esac
[ "\${name%%-*}" = vitest ] && printf '\\n      Tests  100 passed (100)\\n'
exit 0
`,
  );
  chmodSync(join(checkout, "bin/npx"), 0o755);
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe("scripts/test-all.sh", () => {
  it("runs the PostgreSQL half after the SQLite half failed, reports both and exits 1", async () => {
    const run = await testAll("vitest-sqlite");
    expect(run.calls).toEqual([
      "services vitest-sqlite",
      "tsc tsc",
      "biome biome check .",
      "vitest-sqlite vitest run",
      "vitest-postgres vitest run",
    ]);
    expect(run.code).toBe(1);
    const summary = run.stdout.slice(run.stdout.indexOf("== summary"));
    expect(summary.split("\n").slice(1, 6)).toEqual([
      expect.stringMatching(/^ok {6}services \(PostgreSQL, Redis, Chromium, curl, jq\) \(\d+s\)$/),
      expect.stringMatching(/^ok {6}typecheck \(\d+s\)$/),
      expect.stringMatching(/^ok {6}lint \(\d+s\)$/),
      expect.stringMatching(
        /^FAILED {2}tests on the embedded database \(SQLite\) \(exit 3, \d+s\): 2 failed \| 98 passed \(100\)$/,
      ),
      expect.stringMatching(/^ok {6}tests on PostgreSQL \(\d+s\): 100 passed \(100\)$/),
    ]);
  });

  it("keeps going past a failed typecheck and lint too, and exits 0 only when every step passed", async () => {
    const failing = await testAll("tsc biome");
    expect(failing.calls).toHaveLength(5);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^FAILED {2}typecheck \(exit 3, \d+s\)$/m);
    expect(failing.stdout).toMatch(/^FAILED {2}lint \(exit 3, \d+s\)$/m);

    const passing = await testAll("");
    expect(passing.code).toBe(0);
    expect(passing.stdout).not.toContain("FAILED");
    expect(passing.stdout.match(/^ok {6}/gm)).toHaveLength(5);
  });
});
