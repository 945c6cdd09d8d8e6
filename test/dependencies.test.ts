// Declared dependencies only: every package that src/, bench/, scripts/ and test/ import is
// in package.json, so a clean `npm ci` has it, rather than arriving by chance as another package's own.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import semver from "semver";
import ts from "typescript";
import { expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.devDependencies ?? {}),
]);

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // src/generated is Prisma's output; what it imports is Prisma's to declare.
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

/** "@scope/name/sub" → "@scope/name", "name/sub" → "name"; undefined for relative paths and Node's own. */
function packageOf(specifier: string): string | undefined {
  if (/^[./]/.test(specifier) || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  if (builtinModules.includes(parts[0] as string)) return undefined;
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

it("imports no package that package.json does not declare", () => {
  const undeclared: string[] = [];
  for (const file of ["src", "bench", "scripts", "test"].flatMap(sources)) {
    // Static, dynamic and type-only imports, read by TypeScript itself rather than a pattern.
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const name = packageOf(fileName);
      if (name && !declared.has(name)) undeclared.push(`${file}: ${name}`);
    }
  }
  expect(undeclared).toEqual([]);
});

// The Node versions package.json claims are the ones the installed packages accept: the lowest claimed
// version satisfies every locked package's own `engines.node`, and the Node running this test is claimed.
it("claims only Node versions that every installed package supports", () => {
  const claimed: string = manifest.engines.node;
  const lowest = semver.minVersion(claimed)?.version ?? claimed;
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
    .filter(([path, entry]) => path && entry.engines?.node && !semver.satisfies(lowest, entry.engines.node))
    .map(([path, entry]) => `${path} wants node ${entry.engines?.node}`);
  expect(refusing).toEqual([]);
  expect(semver.satisfies(process.versions.node, claimed)).toBe(true);
});
