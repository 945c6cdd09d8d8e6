// One import's state, shared by its sections: the caller's account, the index of what is stored and
// planned, the problems found, and the report's counts. Sections plan first (everything checked, nothing
// written) and hand back the writes to make, which run in one transaction once the whole file passed.
import { isDeepStrictEqual } from "node:util";
import type { Db } from "../../db/client.ts";
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import type { ImportProblems } from "./problems.ts";
import type { SiteIndex } from "./site-index.ts";

export const recordTypes = [
  "collections",
  "blueprints",
  "templates",
  "assets",
  "entries",
  "navigations",
  "forms",
  "globals",
] as const;

export type RecordType = (typeof recordTypes)[number];
export type Counts = Record<RecordType, number>;

export interface ImportReport {
  dry_run: boolean;
  created: Counts;
  updated: Counts;
  unchanged: Counts;
  /** Parts of the file that were not imported, and why (a foreign file's sections, say). */
  skipped: string[];
  problems: { path?: string; line?: number; message: string }[];
}

/** An asset file that came with the document (a .tar.gz), staged in the storage. */
export interface StagedAsset {
  staged: string;
  size: number;
  sha256: string;
}

export interface ImportRun {
  ctx: Context;
  scope: AccountScope;
  problems: ImportProblems;
  index: SiteIndex;
  report: ImportReport;
  /** The moment of the import: every row it creates or changes carries it. */
  now: Date;
  /** Who the revisions name; undefined when revisions are not recorded. */
  author: { tokenId: string | null } | undefined;
  /** Asset bytes by `folder/filename`, when the document came in an archive. */
  files: Map<string, StagedAsset>;
  /** Whether the document came in an archive (.tar.gz): then every asset's bytes must be in it. */
  archived: boolean;
  /** Staged files the import committed (the others are discarded after it). */
  committed: Set<string>;
  /** Collections whose routing changed: their entries' paths are refreshed after the entries. */
  moved?: string[];
  /** What undoes the writes outside the database (files put in place) when the transaction fails. */
  undo: (() => Promise<void>)[];
  /** Hears how many entries have been checked, then written (a progress bar's). */
  progress: (phase: ImportPhase, done: number, total: number) => void;
  /** What follows a committed transaction (bytes replacing a stored asset's). */
  afterCommit: (() => Promise<void>)[];
  /** Awaited between records and statements: lets other requests run once the import held the loop a while. */
  pause: () => Promise<void> | undefined;
}

export type ImportPhase = "reading" | "checking" | "writing";

export type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** A section's writes, made inside the import's transaction. */
export type Write = (tx: Tx) => Promise<void>;

export function emptyCounts(): Counts {
  return Object.fromEntries(recordTypes.map((type) => [type, 0])) as Counts;
}

export function newReport(dryRun: boolean): ImportReport {
  return {
    dry_run: dryRun,
    created: emptyCounts(),
    updated: emptyCounts(),
    unchanged: emptyCounts(),
    skipped: [],
    problems: [],
  };
}

export type Outcome = "created" | "updated" | "unchanged";

export function tally(run: ImportRun, type: RecordType, outcome: Outcome): void {
  run.report[outcome][type]++;
}

/** Equal as JSON would store them: key order does not matter, dates compare as instants. */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
}

/** A section's list (an absent section is an empty one); anything else is a problem. */
export function listOf(
  run: ImportRun,
  path: (string | number)[],
  value: unknown,
): { at: (string | number)[]; record: Record<string, unknown> }[] {
  if (value == null) return [];
  if (!Array.isArray(value)) {
    run.problems.add(path, "must be a list");
    return [];
  }
  const records = [];
  for (const [index, item] of value.entries()) {
    if (typeof item === "object" && item !== null && !Array.isArray(item))
      records.push({ at: [...path, index], record: item as Record<string, unknown> });
    else run.problems.add([...path, index], "must be a mapping of the record's fields");
  }
  return records;
}

/** Adds a problem for a handle seen twice in one section; true when it is new. */
export function firstTime(
  run: ImportRun,
  seen: Set<string>,
  key: string,
  path: (string | number)[],
): boolean {
  if (seen.has(key)) {
    run.problems.add([...path, "handle"], `'${key}' appears twice in the file`);
    return false;
  }
  seen.add(key);
  return true;
}

/** Rows are written this many at a time: within every database's bound on a statement's parameters. */
export const BATCH_ROWS = 500;

export function batches<T>(rows: readonly T[], size = BATCH_ROWS): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += size) result.push(rows.slice(start, start + size));
  return result;
}
