// Every problem an import finds, with where it is: the record's path in the document (`entries.posts[3]
// .values.author`) and the line it starts on. They are all gathered before the import gives up, so one
// answer lists everything to fix; the 422 carries them as the error body's details.
import { ApiError, type ErrorDetail } from "../errors.ts";
import { issuePath } from "../validation.ts";
import type { Path } from "./document.ts";

export interface ImportProblem {
  path?: string;
  line?: number;
  message: string;
}

/** Past this many, the rest are counted only: a broken 100,000-entry file must not answer megabytes. */
const MAX_LISTED = 1000;

export class ImportProblems {
  readonly list: ImportProblem[] = [];
  private unlisted = 0;
  private readonly seen = new Set<string>();
  /** Set once the document is read: finds the line of a path. */
  lineAt: (path: Path) => number | undefined = () => undefined;

  add(path: Path, message: string): void {
    this.push({ path: issuePath(path), line: this.lineAt(path), message });
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
      this.push({
        path: detail.path ? `${issuePath(path)}.${detail.path}`.replace(/\.\[/g, "[") : issuePath(path),
        line: this.lineAt([...path, ...segments]),
        message: detail.message,
      });
    }
  }

  addAtLine(line: number | undefined, message: string): void {
    this.push({ ...(line !== undefined && { line }), message });
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

  private push(problem: ImportProblem): void {
    if (this.list.length >= MAX_LISTED) {
      this.unlisted++;
      return;
    }
    // The same problem found twice (by two rules, or `yaml` saying it twice) is listed once.
    const key = `${problem.path}\n${problem.line}\n${problem.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(problem);
  }
}
