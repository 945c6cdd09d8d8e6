// contentGlobal: one global by handle, or null.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ContentGlobalRef } from "./global-type.ts";

builder.queryField("contentGlobal", (t) =>
  t.prismaField({
    type: ContentGlobalRef,
    nullable: true,
    description: "One global by handle (null when there is none).",
    args: { account_id: accountArg(t.arg), handle: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id);
      return ctx.db.global.findFirst({ ...query, where: { ...scope, handle: args.handle } });
    },
  }),
);
