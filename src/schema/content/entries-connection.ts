// contentEntriesConnection: the same list as contentEntries, paged by cursor (`first`, `after`): each
// edge carries the opaque cursor to continue after it (see cursor.ts).
import { queryFromInfo } from "@pothos/plugin-prisma";
import { z } from "zod";
import { builder } from "../builder.ts";
import { countEntries } from "../entries/count.ts";
import { type ListQuery, listQueryArgs, planList } from "./args.ts";
import { afterCursor, encodeCursor } from "./cursor.ts";
import { MAX_PER_PAGE } from "./entries.ts";
import { orderBy } from "./order.ts";
import { PublishedEntryRef } from "./type.ts";

interface Edge {
  cursor: string;
  node: Record<string, unknown>;
}

interface Connection {
  edges: Edge[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  total: () => Promise<number>;
}

const EdgeRef = builder.objectRef<Edge>("PublishedEntryEdge").implement({
  fields: (t) => ({
    cursor: t.exposeString("cursor", { description: "Pass as `after` to continue after this entry." }),
    node: t.field({ type: PublishedEntryRef, resolve: (edge) => edge.node as never }),
  }),
});

const PageInfoRef = builder.objectRef<Connection>("ContentPageInfo").implement({
  fields: (t) => ({
    has_next_page: t.exposeBoolean("hasNextPage"),
    has_previous_page: t.exposeBoolean("hasPreviousPage", { description: "True when `after` was given." }),
    start_cursor: t.string({ nullable: true, resolve: (page) => page.edges[0]?.cursor ?? null }),
    end_cursor: t.string({ nullable: true, resolve: (page) => page.edges.at(-1)?.cursor ?? null }),
  }),
});

const ConnectionRef = builder.objectRef<Connection>("PublishedEntryConnection").implement({
  fields: (t) => ({
    edges: t.field({ type: [EdgeRef], resolve: (page) => page.edges }),
    page_info: t.field({ type: PageInfoRef, resolve: (page) => page }),
    total: t.int({
      description: "Entries matching the filters, on every page.",
      resolve: (page) => page.total(),
    }),
  }),
});

const firstSchema = z
  .number()
  .int()
  .min(1, "must be 1 or more")
  .max(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`);

builder.queryField("contentEntriesConnection", (t) =>
  t.field({
    type: ConnectionRef,
    description: "A collection's published entries, paged by cursor (default: site order, 20 at a time).",
    args: {
      ...listQueryArgs(t.arg),
      first: t.arg.int({ description: `How many, 1 to ${MAX_PER_PAGE}.`, validate: firstSchema }),
      after: t.arg.string({ description: "An edge's cursor: the entries after it." }),
    },
    resolve: async (_root, args, ctx, info) => {
      const { where, keys } = await planList(ctx, args as ListQuery);
      const first = args.first ?? 20;
      const query = queryFromInfo({ context: ctx, info, path: ["edges", "node"] }) as { select?: object };
      // Cursors need the sort columns whatever the selection.
      if (query.select)
        Object.assign(query.select, Object.fromEntries(keys.map((key) => [key.field.column, true])));
      const page = args.after ? { AND: [where, afterCursor(keys, args.after)] } : where;
      const rows = (await ctx.db.entry.findMany({
        ...query,
        where: page,
        orderBy: orderBy(keys),
        take: first + 1,
      })) as Record<string, unknown>[];
      return {
        edges: rows.slice(0, first).map((row) => ({ cursor: encodeCursor(keys, row), node: row })),
        hasNextPage: rows.length > first,
        hasPreviousPage: Boolean(args.after),
        total: () => countEntries(ctx, where),
      };
    },
  }),
);
