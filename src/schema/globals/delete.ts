// DELETE /globals/:id: the global and the blueprint it owns go together.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findGlobal } from "./find.ts";

builder.mutationField("globalDelete", (t) =>
  t.id({
    description: "Deletes the global and its blueprint; returns its ID.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "global") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const global = await findGlobal(ctx, scope, args.id);
      await ctx.db.$transaction([
        ctx.db.global.deleteMany({ where: { ...scope, id: global.id } }),
        ctx.db.blueprint.deleteMany({ where: { ...scope, id: global.blueprintId } }),
      ]);
      return global.id;
    },
  }),
);
