// POST /forms: always creates (content-api.md: a duplicate handle is a 422, unlike the other
// create-by-handle resources). The handle defaults to the title's slug.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError, Problems } from "../errors.ts";
import { generatedHandle, requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { FormCreateInput } from "./inputs.ts";
import { checkHandle, formColumns, resolveTarget } from "./rules.ts";
import { FormRef } from "./type.ts";

export const formHandleTaken = () => ApiError.invalid("handle", "is already used by another form");

builder.mutationField("formCreate", (t) =>
  t.prismaField({
    type: FormRef,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: FormCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { input } = args;
      const handle = input.handle ?? generatedHandle(ctx, input.title, "form");
      requireHandleStyle(ctx, "handle", handle);
      const problems = new Problems();
      await checkHandle(ctx, scope, handle, undefined, problems);
      const target = await resolveTarget(ctx, scope, input, undefined, problems);
      problems.throwIfAny();
      if (!target) throw new Error("form target unresolved without a problem");
      try {
        return await ctx.db.form.create({
          ...query,
          data: {
            ...formColumns(input),
            ...scope,
            ...target,
            id: newId(prefixes.form),
            title: input.title,
            handle,
          },
        });
      } catch (error) {
        throw isUniqueViolation(error) ? formHandleTaken() : error;
      }
    },
  }),
);
