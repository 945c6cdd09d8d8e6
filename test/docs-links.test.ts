// The README and docs/ link only what a clone has: every relative link of README.md, SECURITY.md and
// docs/*.md names a file inside the repository, and a `#fragment` a heading of the page it points at
// (GitHub's anchors). A path outside the checkout (../shared/…) sends readers nowhere.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(new URL("..", import.meta.url).pathname);
const pages = ["README.md", "SECURITY.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)]
  .filter((page) => page.endsWith(".md"))
  .sort();

/** The targets of `[text](target)` and `[label]: target`, outside code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm)];
  return [...inline, ...references].map((match) => match[1] ?? "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const slugs = new Set<string>();
  for (const [, heading = ""] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading
      .replace(/`/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let unique = slug;
    for (let n = 1; slugs.has(unique); n++) unique = `${slug}-${n}`;
    slugs.add(unique);
  }
  return slugs;
}

/** The repository's files: tracked, or new and not ignored (dist/, data/ and node_modules/ are no part of it). */
const files = new Set(
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean),
);
const inRepository = (path: string) =>
  files.has(path) || [...files].some((file) => file.startsWith(`${path.replace(/\/$/, "")}/`));

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("links in the README and docs/", () => {
  it("finds the pages and their links", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/configuration.md", "docs/mcp.md"]));
    expect(linkTargets("[a](docs/x.md) `[b](no.md)` [c]: ../y.md\n[d](#here)")).toEqual([
      "docs/x.md",
      "#here",
    ]);
    expect(linkTargets("[c]: ../y.md")).toEqual(["../y.md"]);
  });

  for (const page of pages) {
    it(`${page}: every relative link names a file of the repository (and a heading there)`, () => {
      const text = readFileSync(join(root, page), "utf8");
      const broken: string[] = [];
      for (const target of linkTargets(text)) {
        if (isExternal(target)) continue;
        const [path = "", fragment] = target.split("#");
        const file = path === "" ? join(root, page) : resolve(root, dirname(page), decodeURI(path));
        const inside = relative(root, file);
        if (inside.startsWith("..")) {
          broken.push(`${target} (outside the repository)`);
          continue;
        }
        if (inside !== "" && !inRepository(inside)) {
          broken.push(`${target} (no such file in the repository)`);
          continue;
        }
        if (fragment && file.endsWith(".md")) {
          if (!anchors(readFileSync(file, "utf8")).has(fragment)) broken.push(`${target} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
