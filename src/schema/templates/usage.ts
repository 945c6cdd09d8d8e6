// Collections and entries name templates by handle: a rename carries the new handle to them, and a
// template still named by one cannot be deleted.
import type { Db } from "../../db/client.ts";
import type { AccountScope } from "../access.ts";

type Tx = Pick<Db, "collection" | "entry">;

const collectionColumns = ["templateHandle", "layoutHandle", "indexTemplateHandle"] as const;
const entryColumns = ["templateHandle", "layoutHandle"] as const;

export async function renameTemplateReferences(
  tx: Tx,
  scope: AccountScope,
  from: string,
  to: string,
): Promise<void> {
  for (const column of collectionColumns) {
    await tx.collection.updateMany({ where: { ...scope, [column]: from }, data: { [column]: to } });
  }
  for (const column of entryColumns) {
    await tx.entry.updateMany({ where: { ...scope, [column]: from }, data: { [column]: to } });
  }
}

export async function templateInUse(tx: Tx, scope: AccountScope, handle: string): Promise<boolean> {
  const [collection, entry] = await Promise.all([
    tx.collection.findFirst({
      where: { ...scope, OR: collectionColumns.map((column) => ({ [column]: handle })) },
      select: { id: true },
    }),
    tx.entry.findFirst({
      where: { ...scope, OR: entryColumns.map((column) => ({ [column]: handle })) },
      select: { id: true },
    }),
  ]);
  return collection !== null || entry !== null;
}
