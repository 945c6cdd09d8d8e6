// Importing a whole site: a `cms-site/1` document (docs/export-format.md), or the hosted
// service's export.yaml, into an account. The whole file is checked first, every record by the rules
// of its own create mutation and every reference by handle against the file and the account, and
// nothing is written unless all of it passes (a 422 lists every problem, each with its line). Then it is
// written in one transaction, in dependency order, creating or updating by handle; a record already as
// the file has it is not written at all, so importing the same file again changes nothing. A dry run
// stops after the check and says what would happen.
import type { Readable } from "node:stream";
import { accountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { EXPORT_FORMAT } from "../export/header.ts";
import { recordsRevisions, revisionAuthor } from "../revisions/record.ts";
import { discardAll, readArchive } from "./archive.ts";
import { planAssets } from "./assets.ts";
import { planCollections, refreshMoved } from "./collections.ts";
import { planEntries } from "./entries.ts";
import { planForms } from "./forms.ts";
import { planGlobals } from "./globals.ts";
import { fromHosted } from "./hosted.ts";
import { loadSchema } from "./input-check.ts";
import { archiveLimits, OPERATOR_ARCHIVE_LIMITS } from "./limits.ts";
import { planNavigations } from "./navigations.ts";
import { ImportProblems } from "./problems.ts";
import { locateInWorker, readInWorker } from "./read-in-worker.ts";
import {
  type ImportPhase,
  type ImportReport,
  type ImportRun,
  newReport,
  recordTypes,
  type StagedAsset,
} from "./run.ts";
import { readSiteIndex } from "./site-index.ts";
import { planTemplates } from "./templates.ts";
import { checkText } from "./text-check.ts";
import { timeSlicer } from "./time-slice.ts";

export type { ImportPhase, ImportReport } from "./run.ts";

export type ImportSource = { document: string } | { archive: Readable };

export interface ImportOptions {
  dryRun?: boolean;
  /** The operator's own file (`cms import`): an archive is held to no request's limits (limits.ts). */
  operator?: boolean;
  /** Hears how many of the file's entries have been checked, then written. */
  onProgress?: (phase: ImportPhase, done: number, total: number) => void;
}

/** The native document's keys; anything else is reported as skipped. */
const sections = new Set<string>(["format", "exported_at", "source", "counts", ...recordTypes, "complete"]);

/** A whole transaction for a whole site: 100,000 entries take seconds, not Prisma's default 5 s. */
export const TRANSACTION = { maxWait: 60_000, timeout: 30 * 60_000 };

export async function importSite(
  ctx: Context,
  accountId: string,
  source: ImportSource,
  { dryRun = false, operator = false, onProgress = () => {} }: ImportOptions = {},
): Promise<ImportReport> {
  const scope = await accountScope(ctx, accountId, "write");
  await loadSchema();
  const archive =
    "archive" in source
      ? await readArchive(
          source.archive,
          ctx.storage,
          operator ? OPERATOR_ARCHIVE_LIMITS : archiveLimits(ctx.uploadLimit),
          ctx.deadline,
        )
      : { document: source.document, files: new Map<string, StagedAsset>(), skipped: [] };
  const run: ImportRun = {
    ctx,
    scope,
    problems: new ImportProblems(),
    index: undefined as unknown as ImportRun["index"],
    report: newReport(dryRun),
    now: new Date(),
    author: recordsRevisions(ctx) ? { tokenId: await revisionAuthor(ctx) } : undefined,
    files: archive.files,
    archived: "archive" in source,
    committed: new Set(),
    undo: [],
    afterCommit: [],
    progress: onProgress,
    pause: timeSlicer(),
  };
  try {
    if (archive.document === undefined) throw ApiError.invalid("file", "the archive holds no site.yaml");
    run.report.skipped.push(...archive.skipped);
    onProgress("reading", 0, 1);
    const site = await readSite(run, archive.document, { operator, deadline: ctx.deadline });
    if (!site) throw await run.problems.refusal();
    onProgress("reading", 1, 1);
    // Before any lookup: the database's guard would refuse such text in a query, as a write's error.
    if (await checkText(site, run.problems, run.pause)) throw await run.problems.refusal();
    run.index = await readSiteIndex(ctx, scope);
    const writeTemplates = planTemplates(run, site.templates);
    const writeCollections = await planCollections(run, site.collections, site.blueprints);
    const writeAssets = await planAssets(run, site.assets);
    const writeEntries = await planEntries(run, site.entries);
    const writeNavigations = await planNavigations(run, site.navigations);
    const writeForms = await planForms(run, site.forms);
    const writeGlobals = await planGlobals(run, site.globals);
    if (run.problems.any) throw await run.problems.refusal();
    if (dryRun) return run.report;
    try {
      await ctx.db.$transaction(async (tx) => {
        await writeCollections(tx);
        await writeTemplates(tx);
        await writeAssets(tx);
        await writeEntries(tx);
        await refreshMoved(tx, run);
        await writeNavigations(tx);
        await writeGlobals(tx);
        await writeForms(tx);
      }, TRANSACTION);
    } catch (error) {
      for (const undo of run.undo) await undo().catch(() => {});
      throw error;
    }
    for (const step of run.afterCommit) await step();
    ctx.refresh();
    return run.report;
  } finally {
    ctx.loaders.entries(accountId).clearAll();
    ctx.loaders.assets(accountId).clearAll();
    const left = [...run.files.values()].filter((file) => !run.committed.has(file.staged));
    await discardAll(ctx.storage, { files: new Map(left.map((file) => [file.staged, file])) });
  }
}

/** The document as sections of the native format (a hosted service's file converted), or undefined. */
async function readSite(
  run: ImportRun,
  text: string,
  reading: Parameters<typeof readInWorker>[2],
): Promise<Record<string, unknown> | undefined> {
  const document = await readInWorker(text, run.problems, reading);
  if (!document) return undefined;
  const { data } = document;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    run.problems.addAtLine(1, "the document must be a mapping of sections");
    return undefined;
  }
  const site = data as Record<string, unknown>;
  if (!("format" in site)) {
    // The hosted service's export.yaml: its records have other paths than the converted ones.
    const { converted, skipped } = fromHosted(site);
    run.report.skipped.push(...skipped);
    return converted;
  }
  run.problems.locate = locateInWorker(text, reading);
  if (site.format !== EXPORT_FORMAT) {
    run.problems.add(
      ["format"],
      `'${String(site.format)}' is not a format this server reads (${EXPORT_FORMAT})`,
    );
    return undefined;
  }
  if (site.complete !== true)
    run.problems.add(
      ["complete"],
      "is missing: the document was cut short (its last line is `complete: true`)",
    );
  for (const key of Object.keys(site))
    if (!sections.has(key)) run.report.skipped.push(`${key}: not a section of ${EXPORT_FORMAT}`);
  return site;
}
