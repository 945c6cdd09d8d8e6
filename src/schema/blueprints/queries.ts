// GET /blueprints and GET /blueprints/:id. Blueprint lists keep their own pagination shape
// {current_page, total_pages, total_count, per_page} with 25 a page (content-api.md, "Blueprints").
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { Blueprint } from "../../generated/sqlite/client.ts";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage } from "../pagination.ts";
import { findBlueprint } from "./find.ts";
import { BlueprintRef } from "./type.ts";

export const BLUEPRINT_PAGE_SIZE = 25;

interface BlueprintPage {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

const BlueprintPagination = builder.objectRef<BlueprintPage>("BlueprintPagination").implement({
  fields: (t) => ({
    current_page: t.exposeInt("current_page"),
    total_pages: t.exposeInt("total_pages"),
    total_count: t.exposeInt("total_count"),
    per_page: t.exposeInt("per_page"),
  }),
});

const BlueprintList = builder
  .objectRef<{ data: Blueprint[]; pagination: BlueprintPage }>("BlueprintList")
  .implement({
    fields: (t) => ({
      data: t.field({ type: [BlueprintRef], resolve: (list) => list.data }),
      pagination: t.field({ type: BlueprintPagination, resolve: (list) => list.pagination }),
    }),
  });

builder.queryField("blueprints", (t) =>
  t.field({
    type: BlueprintList,
    description: "The account's blueprints, sorted by title.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      const { data, pagination } = await listPage(
        args.page,
        ctx.db.blueprint.count({ where }),
        (range) =>
          ctx.db.blueprint.findMany({
            ...query,
            where,
            orderBy: [{ title: "asc" }, { id: "asc" }],
            ...range,
          }),
        BLUEPRINT_PAGE_SIZE,
      );
      const { page, total_pages, total, per_page } = pagination;
      return { data, pagination: { current_page: page, total_pages, total_count: total, per_page } };
    },
  }),
);

builder.queryField("blueprint", (t) =>
  t.prismaField({
    type: BlueprintRef,
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "blueprint") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findBlueprint(ctx, scope, args.id, query);
    },
  }),
);
