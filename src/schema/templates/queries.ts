// GET /templates (sorted by handle) and GET /templates/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, listType } from "../pagination.ts";
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
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.template.count({ where }), (range) =>
        ctx.db.template.findMany({ ...query, where, orderBy: [{ handle: "asc" }], ...range }),
      );
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
