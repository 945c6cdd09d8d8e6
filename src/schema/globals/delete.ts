// DELETE /globals/:id: the global and the blueprint it owns go to the trash together.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { trashGlobal } from "../trash/global.ts";
import { findGlobal } from "./find.ts";

builder.mutationField("globalDelete", (t) =>
  t.id({
    description: "Deletes the global and its blueprint into the trash; returns its ID.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "global") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const global = await findGlobal(ctx, scope, args.id);
      await trashGlobal(ctx, scope, global.id);
      return global.id;
    },
  }),
);
