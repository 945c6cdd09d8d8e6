// GET /forms (sorted by title) and GET /forms/:id.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg, idArg, listArgs } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, listType } from "../pagination.ts";
import { findForm } from "./find.ts";
import { FormRef } from "./type.ts";

const FormList = listType("Form", FormRef);

builder.queryField("forms", (t) =>
  t.field({
    type: FormList,
    description: "The account's forms, sorted by title.",
    args: listArgs(t.arg),
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id);
      const where = { ...scope, ...(args.handle != null && { handle: args.handle }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.form.count({ where }), (range) =>
        ctx.db.form.findMany({ ...query, where, orderBy: [{ title: "asc" }, { id: "asc" }], ...range }),
      );
    },
  }),
);

builder.queryField("form", (t) =>
  t.prismaField({
    type: FormRef,
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "form") },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return findForm(ctx, scope, args.id, query);
    },
  }),
);
