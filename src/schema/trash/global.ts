// A global in the trash: its row and the blueprint it owns, deleted and restored together. Its blueprint's
// handle is derived from the global's (`global:<handle>`), so a free global handle frees both.
import type { Blueprint, Global } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { toJson } from "../json.ts";
import { handleTaken, inserting } from "./conflicts.ts";
import { putInTrash, revived, type Tx } from "./store.ts";

interface GlobalSnapshot {
  row: Global;
  blueprint: Blueprint;
}

export async function trashGlobal(ctx: Context, scope: AccountScope, id: string): Promise<void> {
  await compareAndSet("global", () =>
    ctx.db.$transaction(async (tx) => {
      const found = await tx.global.findFirst({ where: { ...scope, id }, include: { blueprint: true } });
      if (!found) throw ApiError.notFound("Global");
      const { blueprint, ...row } = found;
      const { count } = await tx.global.deleteMany({ where: { id, version: row.version } });
      if (count === 0) return undefined;
      await tx.blueprint.deleteMany({ where: { ...scope, id: blueprint.id } });
      const snapshot = { row, blueprint };
      await putInTrash(tx, scope, {
        type: "global",
        recordId: id,
        handle: row.handle,
        title: row.name,
        snapshot,
      });
      return true;
    }),
  );
}

export async function restoreGlobal(tx: Tx, scope: AccountScope, snapshot: unknown): Promise<string> {
  const stored = snapshot as GlobalSnapshot;
  const row = revived<Global>(stored.row);
  const blueprint = revived<Blueprint>(stored.blueprint);
  const sameHandle = { ...scope, handle: row.handle };
  if (await tx.global.findFirst({ where: sameHandle, select: { id: true } })) throw handleTaken("global");
  await inserting("global", async () => {
    await tx.blueprint.create({ data: { ...blueprint, fields: toJson(blueprint.fields) } });
    await tx.global.create({ data: { ...row, data: toJson(row.data ?? {}) } });
  });
  return row.id;
}
