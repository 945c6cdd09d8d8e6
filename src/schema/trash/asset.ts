// An asset in the trash: its row. Its bytes stay in storage, under its ID, until the item is purged
// (purge.ts), so a restore only puts the row back. Its "handle" is where the site serves it: path and
// filename, unique in the account.
import type { Asset } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { beforeDelete } from "../webhooks/outbox.ts";
import { handleTaken, inserting } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

export async function trashAsset(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("asset", () =>
    ctx.db.$transaction(async (tx) => {
      const row = await tx.asset.findFirst({ where: { ...scope, id } });
      if (!row) throw ApiError.notFound("Asset");
      const event = { type: "asset.deleted", kind: "asset", id } as const;
      const deleted = await beforeDelete(ctx, tx, scope.accountId, event);
      const { count } = await tx.asset.deleteMany({ where: { id, updatedAt: row.updatedAt } });
      if (count === 0) return undefined;
      await deleted();
      const handle = row.path ? `${row.path}/${row.filename}` : row.filename;
      const item = { type: "asset", recordId: id, handle, title: row.filename } as const;
      await putInTrash(tx, scope, { ...item, snapshot: { row } });
      return true;
    }),
  );
}

export async function restoreAsset(tx: Tx, scope: AccountScope, snapshot: unknown): Promise<string> {
  const row = revived<Asset>((snapshot as { row: unknown }).row);
  const samePlace = { ...scope, path: row.path, filename: row.filename };
  if (await tx.asset.findFirst({ where: samePlace, select: { id: true } })) throw handleTaken("asset");
  await inserting("asset", () => tx.asset.create({ data: row }));
  return row.id;
}
