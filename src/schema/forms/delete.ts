// DELETE /forms/:id: the form goes to the trash. Submissions already stored stay entries of its collection.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { trashForm } from "../trash/form.ts";
import { findForm } from "./find.ts";

builder.mutationField("formDelete", (t) =>
  t.id({
    description:
      "Deletes the form into the trash and returns its ID; its submissions stay entries of its collection.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "form") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const form = await findForm(ctx, scope, args.id);
      await trashForm(ctx, scope, form.id);
      return form.id;
    },
  }),
);
