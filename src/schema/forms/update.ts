// PUT/PATCH /forms/:id: only the sent fields change. A new collection or blueprint is checked against
// the other, sent or stored: the blueprint must stay one of the collection's.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { Problems } from "../errors.ts";
import { requireHandleStyle } from "../handles.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { formHandleTaken } from "./create.ts";
import { findForm } from "./find.ts";
import { FormUpdateInput } from "./inputs.ts";
import { checkHandle, formColumns, resolveTarget } from "./rules.ts";
import { FormRef } from "./type.ts";

builder.mutationField("formUpdate", (t) =>
  t.prismaField({
    type: FormRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "form"),
      input: t.arg({ type: FormUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findForm(ctx, scope, args.id);
      const { input } = args;
      const problems = new Problems();
      if (input.handle != null && input.handle !== stored.handle) {
        requireHandleStyle(ctx, "handle", input.handle);
        await checkHandle(ctx, scope, input.handle, stored.id, problems);
      }
      const retarget = input.collection_handle != null || input.blueprint_handle != null;
      const target = retarget ? await resolveTarget(ctx, scope, input, stored, problems) : undefined;
      problems.throwIfAny();
      try {
        return await ctx.db.form.update({
          ...query,
          where: { id: stored.id },
          data: { ...formColumns(input), ...target },
        });
      } catch (error) {
        throw isUniqueViolation(error) ? formHandleTaken() : error;
      }
    },
  }),
);
