// sitePreviewLink: what a preview link opened on the site shows, for the renderer (internal, like
// `site`). A link is honoured only with its signature intact, before its expiry, on the site of the
// account it was made for (the Host's), and while its entry exists; otherwise null, which the site
// answers with a 404 that does not say which check failed.
import type { Viewer } from "../accounts/tokens.ts";
import { builder } from "../builder.ts";
import { previewSigningKey } from "./signing-key.ts";
import { readPreviewToken } from "./token.ts";

export interface PreviewLinkTarget {
  account_id: string;
  entry_id: string;
  collection: string;
  handle: string;
}

const PreviewLinkTargetRef = builder.objectRef<PreviewLinkTarget>("PreviewLinkTarget").implement({
  description: "The entry a valid preview link shows.",
  fields: (t) => ({
    account_id: t.exposeID("account_id"),
    entry_id: t.exposeID("entry_id"),
    collection: t.exposeString("collection", { description: "The collection's handle." }),
    handle: t.exposeString("handle", { description: "The entry's handle." }),
  }),
});

builder.queryField("sitePreviewLink", (t) =>
  t.field({
    type: PreviewLinkTargetRef,
    nullable: true,
    description:
      "The entry the preview link `token` shows on the Host's site; null for a link not valid here.",
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const claims = readPreviewToken(await previewSigningKey(ctx.db), args.token);
      if (!claims) return null;
      const site = await ctx.site();
      if (site?.id !== claims.accountId) return null;
      const entry = await ctx.db.entry.findFirst({
        where: { accountId: claims.accountId, id: claims.entryId },
        select: { handle: true, collection: { select: { handle: true } } },
      });
      return (
        entry && {
          account_id: claims.accountId,
          entry_id: claims.entryId,
          collection: entry.collection.handle,
          handle: entry.handle,
        }
      );
    },
  }),
);

/**
 * Who opens a valid link: a reader of its account, which is what the preview's `sitePreview` needs to
 * show the entry. It exists for that one render and is named after the entry, never a real token.
 */
export function previewLinkViewer(link: PreviewLinkTarget): Viewer {
  return { accountId: link.account_id, scope: "read", tokenId: `preview:${link.entry_id}` };
}
