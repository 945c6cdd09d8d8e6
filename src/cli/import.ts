// `cms import --account ID FILE [--dry-run]`: a whole site into the account, from FILE.yaml (the
// document) or FILE.tar.gz (`site.yaml` plus the asset files, as `cms export` writes it), through the
// schema's importSite as the REST import does; the operator writes for the account as its write token
// would. A progress bar on stderr follows the import: the document read (in a worker thread), then the
// entries checked and written.
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { operatorViewer } from "../schema/accounts/operator-viewer.ts";
import { createContext } from "../schema/context.ts";
import { type ImportPhase, type ImportReport, importSite } from "../schema/import/index.ts";
import { openStorage } from "../storage/open.ts";
import { UsageError } from "./args.ts";
import { counted } from "./plural.ts";
import { type Progress, progressBar } from "./progress.ts";

const labels: Record<ImportPhase, string> = {
  reading: "reading",
  checking: "checking",
  writing: "importing",
};

export async function importFromFile(
  database: Database,
  config: Pick<Config, "dataDir" | "assetBucket" | "uploadLimit">,
  accountId: string,
  file: string,
  dryRun: boolean,
): Promise<ImportReport> {
  const archive = /\.(tar\.gz|tgz)$/i.test(file);
  if (!archive && !/\.ya?ml$/i.test(file))
    throw new UsageError("FILE must end in .yaml, .yml, .tar.gz or .tgz");
  const storage = await openStorage(config, database.db);
  const ctx = createContext(
    { ...database, storage, uploadLimit: config.uploadLimit },
    { headers: new Headers() },
  );
  // Checked once, here: a missing account is said before the file is read.
  const viewer = await operatorViewer(database.db, accountId);
  ctx.viewer = async () => viewer;
  let progress: Progress | undefined;
  let phase: ImportPhase | undefined;
  const onProgress = (now: ImportPhase, done: number, total: number) => {
    if (now !== phase) {
      progress?.finish();
      progress = progressBar(process.stderr, labels[now], total);
      phase = now;
    }
    progress?.update(
      done,
      now === "reading" ? "the document" : `${done}/${counted(total, "entry", "entries")}`,
    );
  };
  try {
    const source = archive ? { archive: createReadStream(file) } : { document: await readText(file) };
    return await importSite(ctx, accountId, source, { dryRun, operator: true, onProgress });
  } finally {
    progress?.finish();
  }
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/** The report in lines: what each kind of record became, what was skipped. */
export function reportText(report: ImportReport): string {
  const kinds = Object.keys(report.created) as (keyof ImportReport["created"])[];
  const verb = report.dry_run ? "would be " : "";
  const lines = kinds
    .filter((kind) => report.created[kind] + report.updated[kind] + report.unchanged[kind] > 0)
    .map(
      (kind) =>
        `${kind}: ${report.created[kind]} ${verb}created, ${report.updated[kind]} ${verb}updated, ${report.unchanged[kind]} unchanged`,
    );
  for (const skipped of report.skipped) lines.push(`skipped ${skipped}`);
  lines.push(report.dry_run ? "dry run: nothing was written" : "imported");
  return lines.join("\n");
}
