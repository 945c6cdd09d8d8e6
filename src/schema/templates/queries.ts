// GET /templates (sorted by handle) and GET /templates/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listType, PAGE_SIZE, pageOf, window } from "../pagination.ts";
import { findTemplate } from "./find.ts";
import { TemplateRef } from "./type.ts";

const TemplateList = listType("Template", TemplateRef);

builder.queryField("templates", (t) =>
  t.field({
    type: TemplateList,
    description: "The account's layouts, templates and partials, sorted by handle.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const page = args.page ?? 1;
      const [total, data] = await Promise.all([
        ctx.db.template.count({ where }),
        ctx.db.template.findMany({
          ...queryFromInfo({ context: ctx, info, path: ["data"] }),
          where,
          orderBy: [{ handle: "asc" }],
          ...window(page, PAGE_SIZE),
        }),
      ]);
      return { data, pagination: pageOf(page, PAGE_SIZE, total) };
    },
  }),
);

builder.queryField("template", (t) =>
  t.prismaField({
    type: TemplateRef,
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "template") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findTemplate(ctx, scope, args.id, query);
    },
  }),
);
