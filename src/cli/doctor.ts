// `cms doctor`: what the storage and the database disagree on. Asset files no row names (all of them,
// however recent: the server sweeps those older than an hour) and asset rows whose file is missing
// (those need the file put back, or the asset deleted).
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { missingFiles, orphanFiles } from "../schema/assets/orphans.ts";
import { openStorage } from "../storage/open.ts";
import { counted } from "./plural.ts";

export interface DoctorReport {
  orphan_files: { account_id: string; asset_id: string; size: number; modified_at: string }[];
  missing_files: { account_id: string; asset_id: string; path: string; filename: string }[];
}

export async function diagnose(
  database: Database,
  config: Pick<Config, "dataDir" | "assetBucket">,
): Promise<DoctorReport> {
  const storage = await openStorage(config, database.db);
  const report: DoctorReport = { orphan_files: [], missing_files: [] };
  for await (const file of orphanFiles(database.db, storage, new Date()))
    report.orphan_files.push({
      account_id: file.accountId,
      asset_id: file.assetId,
      size: file.size,
      modified_at: file.modifiedAt.toISOString(),
    });
  for await (const row of missingFiles(database.db, storage))
    report.missing_files.push({
      account_id: row.accountId,
      asset_id: row.assetId,
      path: row.path,
      filename: row.filename,
    });
  return report;
}

export function reportText(report: DoctorReport): string {
  const lines = [
    ...report.orphan_files.map(
      (file) =>
        `orphan file ${file.account_id}/${file.asset_id} (${counted(file.size, "byte")}, modified ${file.modified_at}): no asset names it`,
    ),
    ...report.missing_files.map(
      (row) =>
        `missing file ${row.account_id}/${row.asset_id}: the asset ${[row.path, row.filename].filter(Boolean).join("/")} has no stored bytes`,
    ),
  ];
  const summary = `${counted(report.orphan_files.length, "orphan file")}, ${counted(report.missing_files.length, "asset")} without ${report.missing_files.length === 1 ? "its" : "their"} file`;
  return [...lines, summary].join("\n");
}
