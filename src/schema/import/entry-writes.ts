// Writing the planned entries in batches: new rows with createMany, BATCH_ROWS at a time, and their
// first revisions likewise; a changed entry is one compare-and-set update on its version (a writer that
// changed it since the plan read it fails the import: 409, nothing written). The entity references of
// every written entry are inserted last, once all the entries they may point at exist.
import { ApiError } from "../errors.ts";
import { toJson } from "../json.ts";
import { type EntryRow, entryState } from "../revisions/state.ts";
import { recordRevisions } from "./revisions.ts";
import { BATCH_ROWS, batches, type ImportRun, type Tx } from "./run.ts";

export interface EntryWrites {
  creates: EntryRow[];
  updates: { row: EntryRow; version: number }[];
  references: { fromId: string; field: string; toId: string }[];
}

export async function writeEntries(tx: Tx, run: ImportRun, writes: EntryWrites): Promise<void> {
  const { scope } = run;
  const total = writes.creates.length + writes.updates.length;
  let done = 0;
  for (const chunk of batches(writes.creates)) {
    await tx.entry.createMany({ data: chunk.map((row) => ({ ...row, ...scope, data: toJson(row.data) })) });
    await recordRevisions(
      tx,
      run,
      chunk.map((row) => ({ recordType: "entry", recordId: row.id, state: entryState(row), created: true })),
    );
    done += chunk.length;
    run.progress("writing", done, total);
  }
  for (const chunk of batches(writes.updates)) {
    for (const { row, version } of chunk) {
      const { id, createdAt: _created, ...changes } = row;
      const { count } = await tx.entry.updateMany({
        where: { id, version },
        data: { ...changes, data: toJson(row.data), version: { increment: 1 } },
      });
      if (count === 0)
        throw new ApiError(409, "An entry changed while the import ran", [
          { path: "entries", message: `entry '${row.handle}' was written meanwhile: import again` },
        ]);
    }
    await tx.entryReference.deleteMany({
      where: { ...scope, fromId: { in: chunk.map(({ row }) => row.id) } },
    });
    await recordRevisions(
      tx,
      run,
      chunk.map(({ row }) => ({
        recordType: "entry",
        recordId: row.id,
        state: entryState(row),
        created: false,
      })),
    );
  }
  // Twice the batch: a reference row has four columns where an entry has eighteen.
  for (const chunk of batches(writes.references, BATCH_ROWS * 2))
    await tx.entryReference.createMany({ data: chunk.map((link) => ({ ...scope, ...link })) });
}
