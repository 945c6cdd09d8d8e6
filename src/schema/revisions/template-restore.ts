// POST /templates/:id/revisions/:revision/restore: the template takes the revision's handle, title, kind
// and source again through the normal update (a handle taken since is a 422; a rename follows into the
// collections and entries that use it), which records a new revision.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { isPlainObject } from "../entries/values.ts";
import { applyTemplateUpdate, type TemplateUpdate } from "../templates/mutations.ts";
import { TemplateRef } from "../templates/type.ts";
import { findRevision } from "./find.ts";
import { findTemplateId } from "./records.ts";
import { revisionArg } from "./type.ts";

function templateRestoreInput(state: unknown): TemplateUpdate {
  const saved = isPlainObject(state) ? state : {};
  return {
    handle: saved.handle as string,
    title: saved.title as string,
    kind: saved.kind as TemplateUpdate["kind"],
    html: saved.html as string,
  };
}

builder.mutationField("templateRevisionRestore", (t) =>
  t.prismaField({
    type: TemplateRef,
    description: "Restores a template to a revision (recording a new revision) and returns the template.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "template"), revision: revisionArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const recordId = await findTemplateId(ctx, scope, args.id);
      const { state } = await findRevision(ctx, { scope, recordType: "template", recordId }, args.revision);
      const id = await applyTemplateUpdate(ctx, scope, recordId, templateRestoreInput(state));
      return ctx.db.template.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
