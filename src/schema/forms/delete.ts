// DELETE /forms/:id. Submissions already stored stay entries of the form's collection.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findForm } from "./find.ts";

builder.mutationField("formDelete", (t) =>
  t.id({
    description: "Deletes the form and returns its ID; its submissions stay entries of its collection.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "form") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const form = await findForm(ctx, scope, args.id);
      await ctx.db.form.deleteMany({ where: { ...scope, id: form.id } });
      return form.id;
    },
  }),
);
