// Every problem an import finds, with where it is: the record's path in the document (`entries.posts[3]
// .values.author`) and the line it starts on. They are all gathered before the import gives up, so one
// answer lists everything to fix; the 422 carries them as the error body's details. A problem's line is
// found once the check is over, for all of them at once (`locate`: the document is parsed again for it, in
// a worker thread), so that a file with no problem is never parsed for its lines.
import { ApiError, type ErrorDetail } from "../errors.ts";
import { issuePath } from "../validation.ts";
import type { Path } from "./document.ts";

export interface ImportProblem {
  path?: string;
  line?: number;
  message: string;
}

/** The lines where the values at these paths start, when known. */
export type Locate = (paths: Path[]) => Promise<(number | undefined)[]>;

/** Past this many, the rest are counted only: a broken 100,000-entry file must not answer megabytes. */
const MAX_LISTED = 1000;

export class ImportProblems {
  readonly list: ImportProblem[] = [];
  private unlisted = 0;
  private readonly seen = new Set<string>();
  /** Where each listed problem found by path is in the document, to be given its line. */
  private readonly placed = new Map<ImportProblem, Path>();
  /** Set once the document is read, when its lines can be told (a native file's). */
  locate: Locate | undefined;

  add(path: Path, message: string): void {
    this.push({ path: issuePath(path), message }, path);
  }

  /** A problem at `path` whose line is known already (found while the document is read). */
  addAtPathLine(path: Path, line: number | undefined, message: string): void {
    this.push({ path: issuePath(path), ...(line !== undefined && { line }), message });
  }

  /** Problems a rule reported under its own field paths (`handle`, `values.author`), below `path`. */
  addDetails(path: Path, details: readonly ErrorDetail[]): void {
    for (const detail of details) {
      const below = detail.path ? detail.path.split(/\.|(?=\[)/) : [];
      const segments = below.map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part));
      this.push(
        {
          path: detail.path ? `${issuePath(path)}.${detail.path}`.replace(/\.\[/g, "[") : issuePath(path),
          message: detail.message,
        },
        [...path, ...segments],
      );
    }
  }

  addAtLine(line: number | undefined, message: string): void {
    this.push({ ...(line !== undefined && { line }), message });
  }

  /** Problems found elsewhere (the worker that read the document), with their lines. */
  adopt(list: readonly ImportProblem[], unlisted: number): void {
    for (const problem of list) this.push(problem);
    this.unlisted += unlisted;
  }

  /** The 422, once every problem found by path has its line (when the document can tell it). */
  async refusal(): Promise<ApiError> {
    const locate = this.locate;
    if (locate && this.placed.size > 0) {
      const problems = [...this.placed.keys()];
      const lines = await locate(problems.map((problem) => this.placed.get(problem) as Path));
      for (const [index, problem] of problems.entries()) {
        const line = lines[index];
        if (line !== undefined) problem.line = line;
      }
      this.placed.clear();
    }
    return this.error();
  }

  /** Problems past the listed ones, counted only. */
  get unlistedCount(): number {
    return this.unlisted;
  }

  get any(): boolean {
    return this.list.length > 0 || this.unlisted > 0;
  }

  /** The 422 of a refused import: every problem in its details, each with its line when known. */
  error(): ApiError {
    const details: ErrorDetail[] = this.list.map(({ path, line, message }) => ({
      path: path ?? (line !== undefined ? `line ${line}` : "document"),
      message,
      ...(line !== undefined && { line }),
    }));
    if (this.unlisted > 0)
      details.push({ path: "document", message: `and ${this.unlisted} more problems not listed` });
    return new ApiError(422, "Import refused: nothing was written", details);
  }

  private push(problem: ImportProblem, place?: Path): void {
    if (this.list.length >= MAX_LISTED) {
      this.unlisted++;
      return;
    }
    // The same problem found twice (by two rules, or `yaml` saying it twice) is listed once.
    const key = `${problem.path}\n${problem.line}\n${problem.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(problem);
    if (place) this.placed.set(problem, place);
  }
}
