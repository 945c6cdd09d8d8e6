// Revisions of the records an import creates or changes, recorded in its transaction like any other
// write's (revisions/record.ts): a created record's is number 1; a changed record's follows the last one
// recorded, read for all of a batch in one query. Inserted in batches, never read back.
import type { Prisma } from "../../generated/sqlite/client.ts";
import { firstRevision } from "../revisions/record.ts";
import type { RecordType } from "../revisions/state.ts";
import { insertRows, type Table } from "./bulk-insert.ts";
import { batches, type ImportRun, type Tx } from "./run.ts";

export interface Revised {
  recordType: RecordType;
  recordId: string;
  state: Prisma.InputJsonValue;
  /** True for a record this import created (its first revision). */
  created: boolean;
}

export async function recordRevisions(tx: Tx, run: ImportRun, revised: readonly Revised[]): Promise<void> {
  if (!run.author || revised.length === 0) return;
  const last = new Map<string, number>();
  const changed = revised.filter((record) => !record.created).map((record) => record.recordId);
  for (const ids of batches(changed)) {
    const rows = await tx.revision.groupBy({
      by: ["recordId"],
      where: { recordId: { in: ids } },
      _max: { number: true },
    });
    for (const row of rows) last.set(row.recordId, row._max.number ?? 0);
  }
  const { tokenId } = run.author;
  const rows = revised.map((record) => ({
    ...firstRevision({ ...run.scope, ...record, tokenId, at: run.now }),
    number: record.created ? 1 : (last.get(record.recordId) ?? 0) + 1,
  }));
  await insertRows(tx, run.ctx.provider, revisionTable, rows, run.pause);
}

type Row = ReturnType<typeof firstRevision>;

const revisionTable: Table<Row> = {
  name: "Revision",
  columns: [
    { name: "id", kind: "text", value: (row) => row.id },
    { name: "accountId", kind: "text", value: (row) => row.accountId },
    { name: "recordType", kind: "text", value: (row) => row.recordType },
    { name: "recordId", kind: "text", value: (row) => row.recordId },
    { name: "number", kind: "int", value: (row) => row.number },
    { name: "tokenId", kind: "text", value: (row) => row.tokenId },
    { name: "state", kind: "json", value: (row) => row.state },
    { name: "createdAt", kind: "date", value: (row) => row.createdAt },
  ],
};
