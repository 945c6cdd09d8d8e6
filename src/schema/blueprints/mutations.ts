// POST, PUT/PATCH and DELETE /blueprints. A blueprint's handle is unique in the account; one that
// entries still use cannot be deleted.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { compareAndSet } from "../compare-and-set.ts";
import { ApiError } from "../errors.ts";
import { generatedHandle, requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../prisma-errors.ts";
import { defineFields, type FieldInput, mergeFields, readFields } from "./fields.ts";
import { findBlueprint } from "./find.ts";
import { BlueprintCreateInput, BlueprintUpdateInput } from "./inputs.ts";
import { BlueprintRef } from "./type.ts";

const handleTaken = () => ApiError.invalid("handle", "is already used by another blueprint");

builder.mutationField("blueprintCreate", (t) =>
  t.prismaField({
    type: BlueprintRef,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: BlueprintCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { title, fields } = args.input;
      const handle = args.input.handle ?? generatedHandle(ctx, title, "blueprint");
      requireHandleStyle(ctx, "handle", handle);
      try {
        return await ctx.db.blueprint.create({
          ...query,
          data: {
            ...scope,
            id: newId(prefixes.blueprint),
            title,
            handle,
            fields: toJson(defineFields((fields ?? []) as FieldInput[])),
          },
        });
      } catch (error) {
        throw isUniqueViolation(error) ? handleTaken() : error;
      }
    },
  }),
);

builder.mutationField("blueprintUpdate", (t) =>
  t.prismaField({
    type: BlueprintRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "blueprint"),
      input: t.arg({ type: BlueprintUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { title, handle, fields } = args.input;
      // Fields are merged into the stored ones: compare-and-set on `updatedAt` (each write moves it
      // strictly forward), retried on the fresh row, so concurrent PUTs never drop each other's fields.
      return compareAndSet("blueprint", async () => {
        const stored = await findBlueprint(ctx, scope, args.id);
        const owner = await ctx.db.global.findFirst({
          where: { ...scope, blueprintId: stored.id },
          select: { handle: true },
        });
        if (owner) {
          throw new ApiError(409, "This blueprint belongs to a global", [
            { path: "id", message: `change it through /globals/${owner.handle}` },
          ]);
        }
        if (handle != null && handle !== stored.handle) requireHandleStyle(ctx, "handle", handle);
        let count: number;
        try {
          ({ count } = await ctx.db.blueprint.updateMany({
            where: { id: stored.id, updatedAt: stored.updatedAt },
            data: {
              ...(title != null && { title }),
              ...(handle != null && { handle }),
              ...(fields != null && {
                fields: toJson(mergeFields(readFields(stored.fields), fields as FieldInput[])),
              }),
              updatedAt: new Date(Math.max(Date.now(), stored.updatedAt.getTime() + 1)),
            },
          }));
        } catch (error) {
          throw isUniqueViolation(error) ? handleTaken() : error;
        }
        if (count === 0) return undefined;
        return ctx.db.blueprint.findUniqueOrThrow({ ...query, where: { id: stored.id } });
      });
    },
  }),
);

builder.mutationField("blueprintDelete", (t) =>
  t.id({
    description: "Deletes the blueprint and returns its ID; 409 while entries use it.",
    args: { account_id: accountArg(t.arg), id: idArg(t.arg, "blueprint") },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const blueprint = await findBlueprint(ctx, scope, args.id);
      try {
        await ctx.db.blueprint.deleteMany({ where: { ...scope, id: blueprint.id } });
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new ApiError(409, "This blueprint is in use", [
            { path: "id", message: "entries, forms or a global use this blueprint; remove them first" },
          ]);
        }
        throw error;
      }
      return blueprint.id;
    },
  }),
);
