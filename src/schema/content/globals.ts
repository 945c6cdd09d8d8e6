// contentGlobals: every global of the account, sorted by name.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ContentGlobalRef } from "./global-type.ts";

builder.queryField("contentGlobals", (t) =>
  t.prismaField({
    type: [ContentGlobalRef],
    description: "The account's globals, sorted by name.",
    args: { account_id: accountArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return ctx.db.global.findMany({ ...query, where: scope, orderBy: [{ name: "asc" }, { id: "asc" }] });
    },
  }),
);
