// `sitePreview`: the same `Site` as the Host's `site`, but named by account (the token's own; another
// account's is a 403), for an editor's preview of pages that the public site may not show yet. Its
// `entryPage` is any entry's page, drafts included. Internal like `site`: the renderer executes it.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { entryPageOf } from "./entries.ts";
import { SiteRef } from "./type.ts";

builder.queryField("sitePreview", (t) =>
  t.field({
    type: SiteRef,
    nullable: true,
    description: "The site of the account `account_id`, for previews.",
    args: { account_id: accountArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "read");
      const account = await ctx.db.account.findUnique({
        where: { id: scope.accountId },
        select: { id: true, name: true, domain: true },
      });
      return account && { ...account, preview: true as const };
    },
  }),
);

builder.objectField(SiteRef, "entryPage", (t) =>
  t.field({
    type: "JSON",
    nullable: true,
    description:
      "The page of the entry `handle` of `collection`, published or not: {kind: entry, template, layout, " +
      "collection, entry} as `page` answers for a published entry; null when there is no such entry.",
    args: {
      collection: t.arg.string({ required: true, description: "The collection's handle." }),
      handle: t.arg.string({ required: true, description: "The entry's handle." }),
    },
    resolve: (site, args, ctx) => {
      // The Host's `site` is anyone's to read: unpublished entries only through an authorized preview.
      if (!site.preview) throw new ApiError(403, "Unpublished pages are shown only in a preview");
      return entryPageOf(ctx, { accountId: site.id }, args.collection, args.handle);
    },
  }),
);
