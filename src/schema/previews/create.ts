// entryPreviewLink: a signed link that shows one entry (a draft, a scheduled one) on the account's site,
// with its template and layout, to whoever opens it before it expires (ctx.history.previewLinkTtlSeconds).
// Write scope: the link reveals unpublished content to people without a token, which is a publishing
// decision. The link is on the account's domain with the scheme and port of the request that asked for
// it, so one made through http://127.0.0.1:3000 opens at http://<domain>:3000 on the same server.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollection } from "../collections/find.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { previewSigningKey } from "./signing-key.ts";
import { signPreviewToken } from "./token.ts";

/** Where the site serves preview links; the token follows. */
export const PREVIEW_PATH = "/cms/preview/";

interface PreviewLink {
  url: string;
  expires_at: Date;
}

const PreviewLinkRef = builder.objectRef<PreviewLink>("PreviewLink").implement({
  description: "A signed link to an entry's page as it would be published, valid until `expires_at`.",
  fields: (t) => ({
    url: t.exposeString("url"),
    expires_at: t.expose("expires_at", { type: "DateTime" }),
  }),
});

builder.mutationField("entryPreviewLink", (t) =>
  t.field({
    type: PreviewLinkRef,
    description:
      "A link that renders the entry (published or not) on the account's site until it expires; anyone " +
      "holding it sees the entry, so making one needs a write token.",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const collection = await findCollection(ctx, scope, args.collection_id);
      const [entry, account, key] = await Promise.all([
        ctx.db.entry.findFirst({
          where: { ...scope, collectionId: collection.id, ...idOrHandle(args.id, prefixes.entry) },
          select: { id: true },
        }),
        ctx.db.account.findUniqueOrThrow({ where: { id: scope.accountId }, select: { domain: true } }),
        previewSigningKey(ctx.db),
      ]);
      if (!entry) throw ApiError.notFound("Entry");
      // Whole seconds, rounded up: a link lives at least the configured time.
      const expires = Math.ceil(Date.now() / 1000) + ctx.history.previewLinkTtlSeconds;
      const token = signPreviewToken(key, { accountId: scope.accountId, entryId: entry.id, expires });
      return {
        url: `${siteOrigin(account.domain, ctx.requestUrl)}${PREVIEW_PATH}${token}`,
        expires_at: new Date(expires * 1000),
      };
    },
  }),
);

/** The account's domain with the request's scheme and port (https and no port in-process). */
function siteOrigin(domain: string, requestUrl: string | null): string {
  let request: URL | undefined;
  try {
    request = requestUrl ? new URL(requestUrl) : undefined;
  } catch {}
  const scheme = request?.protocol === "http:" ? "http:" : "https:";
  return `${scheme}//${domain}${request?.port ? `:${request.port}` : ""}`;
}
