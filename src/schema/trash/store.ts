// Putting a deleted record in the trash: a delete writes its TrashItem in the transaction that deletes the
// rows, so a record is either live or in the trash, never lost in between. The snapshot is the rows as
// JSON (dates as ISO strings) and the links a restore reattaches; `revived` turns the dates back.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";

export type TrashType = "entry" | "global" | "template" | "navigation" | "form" | "asset";

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

export interface Trashed {
  type: TrashType;
  recordId: string;
  handle: string;
  title: string;
  snapshot: Record<string, unknown>;
}

export async function putInTrash(
  tx: Pick<Tx, "trashItem">,
  scope: AccountScope,
  item: Trashed,
): Promise<void> {
  await tx.trashItem.create({
    data: {
      ...scope,
      id: newId(prefixes.trashItem),
      recordType: item.type,
      recordId: item.recordId,
      handle: item.handle,
      title: item.title,
      // Through JSON text: Date columns become ISO strings, as every JSON column holds them.
      snapshot: toJson(JSON.parse(JSON.stringify(item.snapshot))),
    },
  });
}

const dateColumns = new Set(["createdAt", "updatedAt", "publishedAt"]);

/** A row of a snapshot as Prisma writes it: its date columns as Dates again. */
export function revived<Row>(row: unknown): Row {
  const copy: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const [key, value] of Object.entries(copy))
    if (dateColumns.has(key) && typeof value === "string") copy[key] = new Date(value);
  return copy as Row;
}
