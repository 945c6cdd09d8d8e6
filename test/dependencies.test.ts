// Declared dependencies only (issue #20): every package that src/, bench/, scripts/ and test/ import is
// in package.json, so a clean `npm ci` has it, rather than arriving by chance as another package's own.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
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
