// GET /trash: what was deleted in the account and can still be restored, newest deleted first.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, pageSchema } from "../pagination.ts";
import { TrashItemList } from "./type.ts";

builder.queryField("trash", (t) =>
  t.field({
    type: TrashItemList,
    description: "The account's deleted records, newest deleted first, kept for TRASH_KEEP_DAYS days.",
    args: {
      account_id: accountArg(t.arg),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return listPage(args.page, ctx.db.trashItem.count({ where: scope }), (range) =>
        ctx.db.trashItem.findMany({
          where: scope,
          // Not the snapshot: the list never needs it, and it may be large.
          select: { id: true, recordType: true, recordId: true, handle: true, title: true, deletedAt: true },
          orderBy: [{ deletedAt: "desc" }, { id: "desc" }],
          ...range,
        }),
      );
    },
  }),
);
