// POST /globals/:id/revisions/:revision/restore: the global takes the revision's name, handle, fields and
// values again through the normal update (its checks apply), which records a new revision. The fields
// sent replace the global's list, so fields added since go with their values.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import type { FieldInput } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { isPlainObject } from "../entries/values.ts";
import { GlobalRef } from "../globals/type.ts";
import { applyGlobalUpdate, type GlobalUpdate } from "../globals/update.ts";
import { findRevision } from "./find.ts";
import { findGlobalId } from "./records.ts";
import { revisionArg } from "./type.ts";

/** The update that brings a global back to `state`; its fields' values it had not are cleared. */
export function globalRestoreInput(state: unknown): GlobalUpdate {
  const saved = isPlainObject(state) ? state : {};
  const blueprint = isPlainObject(saved.blueprint) ? saved.blueprint : {};
  const fields = (Array.isArray(blueprint.fields) ? blueprint.fields : []) as FieldInput[];
  const values = isPlainObject(saved.values) ? saved.values : {};
  const cleared = fields.filter((field) => !Object.hasOwn(values, field.handle));
  return {
    name: saved.name as string,
    handle: saved.handle as string,
    fields: fields as GlobalUpdate["fields"],
    values: { ...Object.fromEntries(cleared.map((field) => [field.handle, null])), ...values },
  };
}

builder.mutationField("globalRevisionRestore", (t) =>
  t.prismaField({
    type: GlobalRef,
    description: "Restores a global to a revision (recording a new revision) and returns the global.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "global"), revision: revisionArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const recordId = await findGlobalId(ctx, scope, args.id);
      const { state } = await findRevision(ctx, { scope, recordType: "global", recordId }, args.revision);
      const id = await applyGlobalUpdate(ctx, scope, recordId, globalRestoreInput(state));
      return ctx.db.global.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
