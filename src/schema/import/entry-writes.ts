// Writing the planned entries in batches: new rows with createMany, BATCH_ROWS at a time; a changed entry
// is one compare-and-set update on its version (a writer that changed it since the plan read it fails the
// import: 409, nothing written). Their revisions are recorded by the database as the rows are inserted or
// their versions move (src/db/entry-revisions.ts), naming the importing token (`editedBy`). The entity
// references of every written entry are inserted last, once all the entries they may point at exist.
import { ApiError } from "../errors.ts";
import { toJson } from "../json.ts";
import type { EntryRow } from "../revisions/state.ts";
import { insertRows, type Table } from "./bulk-insert.ts";
import { batches, type ImportRun, type Tx } from "./run.ts";

export interface EntryWrites {
  creates: EntryRow[];
  updates: { row: EntryRow; version: number }[];
  references: { fromId: string; field: string; toId: string }[];
}

type Stored = EntryRow & { accountId: string; editedBy: string | null };

const entryTable: Table<Stored> = {
  name: "Entry",
  columns: [
    { name: "id", kind: "text", value: (row) => row.id },
    { name: "accountId", kind: "text", value: (row) => row.accountId },
    { name: "collectionId", kind: "text", value: (row) => row.collectionId },
    { name: "blueprintId", kind: "text", value: (row) => row.blueprintId },
    { name: "handle", kind: "text", value: (row) => row.handle },
    { name: "title", kind: "text", value: (row) => row.title },
    { name: "published", kind: "bool", value: (row) => row.published },
    { name: "publishedAt", kind: "date", value: (row) => row.publishedAt },
    { name: "includeInSitemap", kind: "bool", value: (row) => row.includeInSitemap },
    { name: "position", kind: "int", value: (row) => row.position },
    { name: "templateHandle", kind: "text", value: (row) => row.templateHandle },
    { name: "layoutHandle", kind: "text", value: (row) => row.layoutHandle },
    { name: "routingOverride", kind: "text", value: (row) => row.routingOverride },
    { name: "contentPath", kind: "text", value: (row) => row.contentPath },
    { name: "data", kind: "json", value: (row) => row.data },
    { name: "version", kind: "int", value: () => 0 },
    { name: "editedBy", kind: "text", value: (row) => row.editedBy },
    { name: "createdAt", kind: "date", value: (row) => row.createdAt },
    { name: "updatedAt", kind: "date", value: (row) => row.updatedAt },
  ],
};

type Link = { accountId: string; fromId: string; field: string; toId: string };

const referenceTable: Table<Link> = {
  name: "EntryReference",
  columns: [
    { name: "accountId", kind: "text", value: (link) => link.accountId },
    { name: "fromId", kind: "text", value: (link) => link.fromId },
    { name: "toId", kind: "text", value: (link) => link.toId },
    { name: "field", kind: "text", value: (link) => link.field },
  ],
};

export async function writeEntries(tx: Tx, run: ImportRun, writes: EntryWrites): Promise<void> {
  const { scope } = run;
  const editedBy = run.author?.tokenId ?? null;
  const total = writes.creates.length + writes.updates.length;
  let done = 0;
  for (const chunk of batches(writes.creates)) {
    await insertRows(
      tx,
      run.ctx.provider,
      entryTable,
      chunk.map((row) => ({ ...row, ...scope, editedBy })),
      run.pause,
    );
    done += chunk.length;
    run.progress("writing", done, total);
  }
  for (const chunk of batches(writes.updates)) {
    for (const { row, version } of chunk) {
      await run.pause();
      const { id, createdAt: _created, ...changes } = row;
      const { count } = await tx.entry.updateMany({
        where: { id, version },
        data: { ...changes, data: toJson(row.data), editedBy, version: { increment: 1 } },
      });
      if (count === 0)
        throw new ApiError(409, "An entry changed while the import ran", [
          { path: "entries", message: `entry '${row.handle}' was written meanwhile: import again` },
        ]);
    }
    await tx.entryReference.deleteMany({
      where: { ...scope, fromId: { in: chunk.map(({ row }) => row.id) } },
    });
  }
  const links = writes.references.map((link) => ({ ...scope, ...link }));
  await insertRows(tx, run.ctx.provider, referenceTable, links, run.pause);
}
