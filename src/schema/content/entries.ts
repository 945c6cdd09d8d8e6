// contentEntries: a collection's published entries for frontend apps, filtered and sorted, by page number.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { z } from "zod";
import { builder } from "../builder.ts";
import { countEntries } from "../entries/count.ts";
import { listPage, listType, pageSchema } from "../pagination.ts";
import { type ListQuery, listQueryArgs, planList } from "./args.ts";
import { orderBy } from "./order.ts";
import { PublishedEntryRef } from "./type.ts";

export const MAX_PER_PAGE = 100;
const perPageSchema = z
  .number()
  .int()
  .min(1, "must be 1 or more")
  .max(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`);

const PublishedEntryList = listType("PublishedEntry", PublishedEntryRef);

builder.queryField("contentEntries", (t) =>
  t.field({
    type: PublishedEntryList,
    description: "A collection's published entries, a page at a time (default: site order, 20 a page).",
    args: {
      ...listQueryArgs(t.arg),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
      per_page: t.arg.int({ description: `Entries a page, 1 to ${MAX_PER_PAGE}.`, validate: perPageSchema }),
    },
    resolve: async (_root, args, ctx, info) => {
      const { where, keys } = await planList(ctx, args as ListQuery);
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(
        args.page,
        countEntries(ctx, where),
        (range) => ctx.db.entry.findMany({ ...query, where, orderBy: orderBy(keys), ...range }),
        args.per_page ?? 20,
      );
    },
  }),
);
