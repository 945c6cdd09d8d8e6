// GET /collections/:collection_id/entries (newest created first) and GET .../entries/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollectionId } from "../collections/find.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { listPage, listType } from "../pagination.ts";
import { countEntries } from "./count.ts";
import { EntryRef } from "./type.ts";

const EntryList = listType("Entry", EntryRef);

builder.queryField("entries", (t) =>
  t.field({
    type: EntryList,
    description: "A collection's entries, newest created first.",
    args: {
      ...listArgs(t.arg),
      collection_id: idArg(t.arg, "collection"),
      published: t.arg.boolean({ description: "Only published (true) or unpublished (false) entries." }),
    },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const collectionId = await findCollectionId(ctx, scope, args.collection_id);
      const where = {
        ...scope,
        collectionId,
        ...(args.handle != null && { handle: args.handle }),
        ...(args.published != null && { published: args.published }),
      };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, countEntries(ctx, where), (range) =>
        ctx.db.entry.findMany({
          ...query,
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...range,
        }),
      );
    },
  }),
);

builder.queryField("entry", (t) =>
  t.prismaField({
    type: EntryRef,
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      // The collection is named by the account's kept collections, so one read finds the entry by its
      // unique key (a miss of the collection is the collection's 404).
      const collectionId = await findCollectionId(ctx, scope, args.collection_id);
      const entry = await ctx.db.entry.findFirst({
        ...query,
        where: { ...scope, collectionId, ...idOrHandle(args.id, prefixes.entry) },
      });
      if (entry) return entry;
      throw ApiError.notFound("Entry");
    },
  }),
);
