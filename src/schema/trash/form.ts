// A form in the trash: its row. Its submissions are entries of its collection and stay there; its
// collection and blueprint must still exist for it to come back.
import type { Form } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { handleTaken, inserting, parentGone } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

export async function trashForm(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("form", () =>
    ctx.db.$transaction(async (tx) => {
      const row = await tx.form.findFirst({ where: { ...scope, id } });
      if (!row) throw ApiError.notFound("Form");
      const { count } = await tx.form.deleteMany({ where: { id, updatedAt: row.updatedAt } });
      if (count === 0) return undefined;
      const item = { type: "form", recordId: id, handle: row.handle, title: row.title } as const;
      await putInTrash(tx, scope, { ...item, snapshot: { row } });
      return true;
    }),
  );
}

export async function restoreForm(tx: Tx, scope: AccountScope, snapshot: unknown): Promise<string> {
  const row = revived<Form>((snapshot as { row: unknown }).row);
  if (!(await tx.collection.findFirst({ where: { ...scope, id: row.collectionId }, select: { id: true } })))
    throw parentGone("form", "collection");
  if (!(await tx.blueprint.findFirst({ where: { ...scope, id: row.blueprintId }, select: { id: true } })))
    throw parentGone("form", "blueprint");
  if (await tx.form.findFirst({ where: { ...scope, handle: row.handle }, select: { id: true } }))
    throw handleTaken("form");
  await inserting("form", () => tx.form.create({ data: row }));
  return row.id;
}
