// POST /trash/:id/restore: the record comes back with its ID, handle and links, and leaves the trash; the
// answer is the record as its own GET answers it.

import type { AccountScope } from "../access.ts";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { pruneLater } from "../revisions/prune.ts";
import { recordsRevisions, retryOnClash, revisionAuthor } from "../revisions/record.ts";
import { recordEvents } from "../webhooks/outbox.ts";
import { restoreAsset } from "./asset.ts";
import { restoreEntry } from "./entry.ts";
import { restoreForm } from "./form.ts";
import { restoreGlobal } from "./global.ts";
import { restoreNavigation } from "./navigation.ts";
import { restoredEvents } from "./restored-events.ts";
import { hasRevisions, recordRestore } from "./revision.ts";
import type { TrashType, Tx } from "./store.ts";
import { restoreTemplate } from "./template.ts";
import { TrashRestorePayloadRef } from "./type.ts";

type Restorer = (tx: Tx, scope: AccountScope, snapshot: unknown, ctx: Context) => Promise<string>;

const restorers: Record<TrashType, Restorer> = {
  entry: restoreEntry,
  global: restoreGlobal,
  template: restoreTemplate,
  navigation: restoreNavigation,
  form: restoreForm,
  asset: restoreAsset,
};

/** The restored row; the record types read what else they answer (relations) themselves. */
function readRecord(ctx: Context, type: TrashType, id: string): Promise<{ id: string }> {
  const where = { where: { id } };
  switch (type) {
    case "entry":
      return ctx.db.entry.findUniqueOrThrow(where);
    case "global":
      return ctx.db.global.findUniqueOrThrow(where);
    case "template":
      return ctx.db.template.findUniqueOrThrow(where);
    case "navigation":
      return ctx.db.navigation.findUniqueOrThrow(where);
    case "form":
      return ctx.db.form.findUniqueOrThrow(where);
    case "asset":
      return ctx.db.asset.findUniqueOrThrow(where);
  }
}

builder.mutationField("trashRestore", (t) =>
  t.field({
    type: TrashRestorePayloadRef,
    description:
      "Restores a deleted record with its ID, handle and links; 409 when its handle was taken since, 404 " +
      "when what it belongs to (an entry's or a form's collection) is gone.",
    args: {
      account_id: accountArg(t.arg),
      id: t.arg.id({ required: true, description: "The trash item's ID (trash_...)." }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const tokenId = recordsRevisions(ctx) ? await revisionAuthor(ctx) : null;
      let revision = 0;
      // A clash on the revision number rolls the whole restore back (the item goes back in the trash).
      const restored = await retryOnClash(() =>
        ctx.db.$transaction(async (tx) => {
          const item = await tx.trashItem.findFirst({ where: { ...scope, id: args.id } });
          // Taken out first: a concurrent restore or purge of the same item then finds nothing.
          const taken = item && (await tx.trashItem.deleteMany({ where: { id: item.id } }));
          if (!item || !taken?.count) throw ApiError.notFound("Trash item");
          const type = item.recordType as TrashType;
          const id = await restorers[type](tx, scope, item.snapshot, ctx);
          await recordEvents(ctx, tx, scope.accountId, await restoredEvents(tx, type, id));
          // Restoring an entry, a global or a template records a revision, as a save does (revision.ts).
          if (hasRevisions(type) && recordsRevisions(ctx))
            revision = await recordRestore(tx, { scope, type, id, tokenId, at: new Date() });
          return { type, id };
        }),
      );
      if (revision > 0) pruneLater(ctx, restored.id, revision);
      // Entries read earlier in this request (none, usually) may be remembered as missing.
      ctx.loaders.entries(scope.accountId).clearAll();
      return { type: restored.type, record: await readRecord(ctx, restored.type, restored.id) };
    },
  }),
);
