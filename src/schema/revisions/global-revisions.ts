// GET /globals/:id/revisions (newest first) and /globals/:id/revisions/:revision.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { pageSchema } from "../pagination.ts";
import { findRevision, listRevisions } from "./find.ts";
import { findGlobalId } from "./records.ts";
import { RevisionList, RevisionRef, revisionArg } from "./type.ts";

builder.queryField("globalRevisions", (t) =>
  t.field({
    type: RevisionList,
    description: "A global's revisions, newest first (without their state).",
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "global"),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const recordId = await findGlobalId(ctx, scope, args.id);
      return listRevisions(ctx, { scope, recordType: "global", recordId }, args.page);
    },
  }),
);

builder.queryField("globalRevision", (t) =>
  t.field({
    type: RevisionRef,
    description: "One revision of a global with the state it holds (its blueprint fields included).",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "global"), revision: revisionArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const recordId = await findGlobalId(ctx, scope, args.id);
      return findRevision(ctx, { scope, recordType: "global", recordId }, args.revision);
    },
  }),
);
