// A restore from the trash is one of the writes that record a revision (every create, update
// and restore records one), for the types that have revisions: entries, globals and templates. It is recorded in the
// restore's transaction and numbered after the record's last revision, which stays while the record is in
// the trash. Unlike a save, the restore does not know the row as it ends (an entry's path may have moved
// with its collection's routing), so the row is read back: a rare write. An entry's revision was recorded
// by the database when its row was inserted (src/db/entry-revisions.ts): it is completed here with the
// row as the restore leaves it, the restoring token and the time.
import type { AccountScope } from "../access.ts";
import { recordRevision } from "../revisions/record.ts";
import { entryState, globalState, type RecordType, templateState } from "../revisions/state.ts";
import type { TrashType, Tx } from "./store.ts";

/** The blueprint as a global's revision holds it (as its create and update record it). */
const blueprintSelect = { id: true, handle: true, title: true, fields: true } as const;

async function restoredState(tx: Tx, type: RecordType, id: string) {
  switch (type) {
    case "entry":
      return entryState(await tx.entry.findUniqueOrThrow({ where: { id } }));
    case "global":
      return globalState(
        await tx.global.findUniqueOrThrow({
          where: { id },
          include: { blueprint: { select: blueprintSelect } },
        }),
      );
    case "template":
      return templateState(await tx.template.findUniqueOrThrow({ where: { id } }));
  }
}

export function hasRevisions(type: TrashType): type is RecordType {
  return type === "entry" || type === "global" || type === "template";
}

export interface RestoreRecording {
  scope: AccountScope;
  type: RecordType;
  id: string;
  /** The token that restored it: its ID, never its secret. */
  tokenId: string | null;
  at: Date;
}

/** Records the restored record's revision inside `tx` and returns its number. */
export async function recordRestore(tx: Tx, restore: RestoreRecording): Promise<number> {
  if (restore.type === "entry") return completeEntryRestore(tx, restore);
  const state = await restoredState(tx, restore.type, restore.id);
  return recordRevision(tx, {
    accountId: restore.scope.accountId,
    recordType: restore.type,
    recordId: restore.id,
    tokenId: restore.tokenId,
    state,
    at: restore.at,
  });
}

async function completeEntryRestore(tx: Tx, { id, tokenId, at }: RestoreRecording): Promise<number> {
  const row = await tx.entry.findUniqueOrThrow({ where: { id } });
  // The restore is the entry's last write; its time stays the one it had (the restore brings it back as it was).
  await tx.entry.update({ where: { id }, data: { editedBy: tokenId, updatedAt: row.updatedAt } });
  const recorded = await tx.revision.findFirst({
    where: { recordId: id },
    orderBy: { number: "desc" },
    select: { id: true, number: true },
  });
  if (!recorded) return 0;
  await tx.revision.update({
    where: { id: recorded.id },
    data: { state: entryState(row), tokenId, createdAt: at },
    select: { id: true },
  });
  return recorded.number;
}
