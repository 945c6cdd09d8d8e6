// POST, PUT/PATCH and DELETE /templates. Handles are unique in the account (a second POST of one is a
// 422); a rename follows into the collections and entries that use the template.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { generatedHandle, requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { trashTemplate } from "../trash/template.ts";
import { findTemplate } from "./find.ts";
import { TemplateCreateInput, TemplateUpdateInput } from "./inputs.ts";
import { TemplateRef } from "./type.ts";
import { renameTemplateReferences, templateInUse } from "./usage.ts";

const handleTaken = () => ApiError.invalid("handle", "is already used by another template");

builder.mutationField("templateCreate", (t) =>
  t.prismaField({
    type: TemplateRef,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: TemplateCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { title, handle, kind, html } = args.input;
      if (!title && !handle) throw ApiError.invalid("handle", "is required when no title is given");
      const finalHandle = handle ?? generatedHandle(ctx, title ?? "", "template");
      requireHandleStyle(ctx, "handle", finalHandle);
      try {
        return await ctx.db.template.create({
          ...query,
          data: {
            ...scope,
            id: newId(prefixes.template),
            handle: finalHandle,
            title: title ?? finalHandle,
            kind: kind ?? "template",
            html,
          },
        });
      } catch (error) {
        throw isUniqueViolation(error) ? handleTaken() : error;
      }
    },
  }),
);

builder.mutationField("templateUpdate", (t) =>
  t.prismaField({
    type: TemplateRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "template"),
      input: t.arg({ type: TemplateUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findTemplate(ctx, scope, args.id);
      const { title, handle, kind, html } = args.input;
      if (handle != null && handle !== stored.handle) requireHandleStyle(ctx, "handle", handle);
      try {
        await ctx.db.$transaction(async (tx) => {
          await tx.template.update({
            where: { id: stored.id },
            data: {
              ...(title != null && { title }),
              ...(handle != null && { handle }),
              ...(kind != null && { kind }),
              ...(html != null && { html }),
            },
          });
          if (handle != null && handle !== stored.handle)
            await renameTemplateReferences(tx, scope, stored.handle, handle);
        });
      } catch (error) {
        throw isUniqueViolation(error) ? handleTaken() : error;
      }
      return ctx.db.template.findUniqueOrThrow({ ...query, where: { id: stored.id } });
    },
  }),
);

builder.mutationField("templateDelete", (t) =>
  t.id({
    description: "Deletes the template and returns its ID; 409 while a collection or entry names it.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "template") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const template = await findTemplate(ctx, scope, args.id);
      if (await templateInUse(ctx.db, scope, template.handle)) {
        throw new ApiError(409, "Collections or entries use this template", [
          { path: "handle", message: "change the collections and entries that name this template first" },
        ]);
      }
      await trashTemplate(ctx, scope, template.id);
      return template.id;
    },
  }),
);
