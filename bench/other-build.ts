// Another build of this repository for a side-by-side run (side-by-side.ts): a git ref checked out in a
// temporary worktree that shares this checkout's node_modules, with its Prisma clients generated and its
// server built there, as `npm install` and `npm start` do.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { root } from "./processes.ts";

export interface OtherBuild {
  dir: string;
  commit: string;
  remove(): void;
}

const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

/** The commit of this checkout, with `+changes` when its tracked files differ from it. */
export function thisCommit(): string {
  const changed = git("status", "--porcelain", "--untracked-files=no") !== "";
  return `${git("rev-parse", "HEAD")}${changed ? "+changes" : ""}`;
}

export function buildAt(ref: string): OtherBuild {
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
  const dir = join(mkdtempSync(join(tmpdir(), "cms-bench-build-")), "checkout");
  git("worktree", "add", "--detach", dir, commit);
  const remove = () => {
    git("worktree", "remove", "--force", dir);
    rmSync(dirname(dir), { recursive: true, force: true });
  };
  try {
    symlinkSync(realpathSync(join(root, "node_modules")), join(dir, "node_modules"));
    console.log(`bench: building ${ref} (${commit.slice(0, 10)}) in ${dir}`);
    for (const script of ["scripts/generate.mjs", "scripts/build.mjs"])
      execFileSync(process.execPath, [script], { cwd: dir, stdio: "inherit" });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, commit, remove };
}
