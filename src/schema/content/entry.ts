// contentEntry: one published entry, by its content path (account-wide, as the site resolves a URL) or
// by collection and handle; null when there is none or it is unpublished.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { visible } from "../site/scope.ts";
import { PublishedEntryRef } from "./type.ts";

builder.queryField("contentEntry", (t) =>
  t.prismaField({
    type: PublishedEntryRef,
    nullable: true,
    description:
      "A published entry by `path` (its content_path, such as /blog/hello), or by `collection` and `handle`.",
    args: {
      account_id: accountArg(t.arg),
      path: t.arg.string({ description: "The entry's content_path." }),
      collection: t.arg.id({ description: "With `handle`: the collection's prefix ID or handle." }),
      handle: t.arg.string({ description: "With `collection`: the entry's handle." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      const shown = await visible(ctx);
      if (args.path != null) {
        if (args.collection != null || args.handle != null)
          throw ApiError.invalid("path", "give either path, or collection and handle");
        return ctx.db.entry.findFirst({
          ...query,
          where: { ...scope, ...shown, contentPath: args.path },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        });
      }
      if (args.collection == null || args.handle == null)
        throw ApiError.invalid(args.collection == null ? "collection" : "handle", "is required without path");
      return ctx.db.entry.findFirst({
        ...query,
        where: {
          ...scope,
          ...shown,
          handle: args.handle,
          collection: { ...scope, ...idOrHandle(args.collection, prefixes.collection) },
        },
      });
    },
  }),
);
