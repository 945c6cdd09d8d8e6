// GET /collections/:collection_id/entries/:id/revisions (newest first) and .../revisions/:revision.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { pageSchema } from "../pagination.ts";
import { findRevision, listRevisions } from "./find.ts";
import { findEntryRecord } from "./records.ts";
import { RevisionList, RevisionRef, revisionArg } from "./type.ts";

builder.queryField("entryRevisions", (t) =>
  t.field({
    type: RevisionList,
    description: "An entry's revisions, newest first (without their state).",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const { entry } = await findEntryRecord(ctx, scope, args.collection_id, args.id);
      return listRevisions(ctx, { scope, recordType: "entry", recordId: entry.id }, args.page);
    },
  }),
);

builder.queryField("entryRevision", (t) =>
  t.field({
    type: RevisionRef,
    description: "One revision of an entry with the state it holds.",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
      revision: revisionArg(t.arg),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const { entry } = await findEntryRecord(ctx, scope, args.collection_id, args.id);
      return findRevision(ctx, { scope, recordType: "entry", recordId: entry.id }, args.revision);
    },
  }),
);
