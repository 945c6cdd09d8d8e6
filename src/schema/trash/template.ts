// A template in the trash: its row. A delete is refused while collections or entries name it by handle
// (templateInUse, in the delete's transaction), so nothing else links to it.
import type { Template } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { templateInUse } from "../templates/usage.ts";
import { beforeDelete } from "../webhooks/outbox.ts";
import { handleTaken, inserting } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

export async function trashTemplate(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("template", () =>
    ctx.db.$transaction(async (tx) => {
      // Under the lock writes naming templates take (templates/references.ts): none names it meanwhile.
      await lockAccount(ctx, tx, scope.accountId);
      const row = await tx.template.findFirst({ where: { ...scope, id } });
      if (!row) throw ApiError.notFound("Template");
      if (await templateInUse(tx, scope, row.handle)) {
        throw new ApiError(409, "Collections or entries use this template", [
          { path: "handle", message: "change the collections and entries that name this template first" },
        ]);
      }
      const event = { type: "template.deleted", kind: "template", id } as const;
      const deleted = await beforeDelete(ctx, tx, scope.accountId, event);
      const { count } = await tx.template.deleteMany({ where: { id, updatedAt: row.updatedAt } });
      if (count === 0) return undefined;
      await deleted();
      const item = { type: "template", recordId: id, handle: row.handle, title: row.title } as const;
      await putInTrash(tx, scope, { ...item, snapshot: { row } });
      return true;
    }),
  );
}

export async function restoreTemplate(tx: Tx, scope: AccountScope, snapshot: unknown): Promise<string> {
  const row = revived<Template>((snapshot as { row: unknown }).row);
  const sameHandle = { ...scope, handle: row.handle };
  if (await tx.template.findFirst({ where: sameHandle, select: { id: true } })) throw handleTaken("template");
  await inserting("template", () => tx.template.create({ data: row }));
  return row.id;
}
