// Purging a trash item: the item, the record's revisions and, for an asset, its bytes, for good. The
// DELETE /trash/:id operation and the expiry sweep (sweep.ts) both purge through purgeItem.
import type { Db } from "../../db/client.ts";
import type { Storage } from "../../storage/storage.ts";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";

export interface PurgedItem {
  id: string;
  accountId: string;
  recordType: string;
  recordId: string;
}

/** False when the item was gone already (restored, or purged by another request or process). */
export async function purgeItem(db: Db, storage: Storage, item: PurgedItem): Promise<boolean> {
  const purged = await db.$transaction(async (tx) => {
    const { count } = await tx.trashItem.deleteMany({ where: { id: item.id } });
    if (count === 0) return false;
    const { accountId, recordType, recordId } = item;
    await tx.revision.deleteMany({ where: { accountId, recordType, recordId } });
    return true;
  });
  // After the commit: a failure in between leaves unreferenced bytes, never an item without them.
  if (purged && item.recordType === "asset") await storage.remove(item.accountId, item.recordId);
  return purged;
}

builder.mutationField("trashPurge", (t) =>
  t.id({
    description:
      "Deletes a trash item for good (an asset's file and a record's revisions with it); returns its ID.",
    args: {
      account_id: accountArg(t.arg),
      id: t.arg.id({ required: true, description: "The trash item's ID (trash_...)." }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const item = await ctx.db.trashItem.findFirst({
        where: { ...scope, id: args.id },
        select: { id: true, accountId: true, recordType: true, recordId: true },
      });
      if (!item || !(await purgeItem(ctx.db, ctx.storage, item))) throw ApiError.notFound("Trash item");
      return item.id;
    },
  }),
);
