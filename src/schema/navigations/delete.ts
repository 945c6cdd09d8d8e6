// DELETE /navigations/:id: the navigation and its items go to the trash together.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { trashNavigation } from "../trash/navigation.ts";
import { findNavigation } from "./find.ts";

builder.mutationField("navigationDelete", (t) =>
  t.id({
    description: "Deletes the navigation and all of its items into the trash; returns its ID.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "navigation") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.id);
      await trashNavigation(ctx, scope, navigation.id);
      return navigation.id;
    },
  }),
);
