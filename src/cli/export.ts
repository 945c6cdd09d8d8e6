// `cms export --account ID --out FILE`: the account's site as the REST export gives it (the schema's
// exportSite), written to FILE.yaml, or to FILE.tar.gz as `site.yaml` plus every asset's bytes under
// `assets/<folder>/<filename>`. The file appears whole or not at all: it is written beside itself and
// renamed at the end.
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { createContext } from "../schema/context.ts";
import { assetFiles, type ExportProgress, exportSite } from "../schema/export/index.ts";
import { openStorage } from "../storage/open.ts";
import { UsageError } from "./args.ts";
import { counted } from "./plural.ts";
import { type Progress, progressBar } from "./progress.ts";
import { addFile, writeTarGz } from "./tar-entry.ts";

export interface ExportSummary {
  file: string;
  collections: number;
  entries: number;
  assets: number;
  /** Assets whose stored file was missing (only for .tar.gz, which then lacks their bytes). */
  missing_files: number;
}

export async function exportToFile(
  database: Database,
  config: Pick<Config, "dataDir" | "assetBucket">,
  accountId: string,
  out: string,
): Promise<ExportSummary> {
  const archive = /\.(tar\.gz|tgz)$/i.test(out);
  if (!archive && !/\.ya?ml$/i.test(out))
    throw new UsageError("--out must end in .yaml, .yml, .tar.gz or .tgz");
  const storage = await openStorage(config, database.db);
  const ctx = createContext({ ...database, storage, uploadLimit: 0 }, { headers: new Headers() });
  // The operator reads for the account, as its read token would.
  ctx.viewer = async () => ({ accountId, scope: "read", tokenId: "cli" });

  // Parts are produced, and progress heard, only once the counts (the bar's total) are known.
  let progress: Progress | undefined;
  const { counts, parts } = await exportSite(ctx, accountId, (done: ExportProgress) =>
    progress?.update(
      done.entries + done.assets,
      `${done.entries}/${counted(counts.entries, "entry", "entries")}`,
    ),
  );
  progress = progressBar(process.stderr, "exporting", counts.entries + counts.assets);
  const partial = `${out}.partial`;
  const document = archive ? `${out}.site.yaml.partial` : partial;
  let missing = 0;
  try {
    await pipeline(Readable.from(parts), createWriteStream(document));
    if (archive) missing = await writeArchive(partial, document, assetFiles(ctx, accountId));
    await rename(partial, out);
  } finally {
    progress.finish();
    await rm(partial, { force: true });
    if (archive) await rm(document, { force: true });
  }
  return { file: out, ...counts, missing_files: missing };
}

/** The .tar.gz: `site.yaml` first (an importer reads it before the bytes), then each asset's file. */
async function writeArchive(
  file: string,
  document: string,
  assets: AsyncIterable<{ name: string; size: number; read(): Promise<Readable | undefined> }>,
): Promise<number> {
  let missing = 0;
  await writeTarGz(file, async (pack) => {
    await addFile(pack, "site.yaml", (await stat(document)).size, createReadStream(document));
    for await (const asset of assets) {
      const bytes = await asset.read();
      if (bytes) await addFile(pack, `assets/${asset.name}`, asset.size, bytes);
      else missing++;
    }
  });
  return missing;
}
