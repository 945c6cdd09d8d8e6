// GET /templates/:id/revisions (newest first) and /templates/:id/revisions/:revision.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { pageSchema } from "../pagination.ts";
import { findRevision, listRevisions } from "./find.ts";
import { findTemplateId } from "./records.ts";
import { RevisionList, RevisionRef, revisionArg } from "./type.ts";

builder.queryField("templateRevisions", (t) =>
  t.field({
    type: RevisionList,
    description: "A template's revisions, newest first (without their state).",
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "template"),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const recordId = await findTemplateId(ctx, scope, args.id);
      return listRevisions(ctx, { scope, recordType: "template", recordId }, args.page);
    },
  }),
);

builder.queryField("templateRevision", (t) =>
  t.field({
    type: RevisionRef,
    description: "One revision of a template with the state it holds (its Liquid source included).",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "template"), revision: revisionArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const recordId = await findTemplateId(ctx, scope, args.id);
      return findRevision(ctx, { scope, recordType: "template", recordId }, args.revision);
    },
  }),
);
