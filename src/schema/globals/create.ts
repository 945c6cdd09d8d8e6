// POST /globals: creates the global and its own blueprint in one transaction. Always creates: a handle
// the account already uses is a 422 on `handle`.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { defineFields, type FieldInput } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { ApiError, Problems } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { blueprintHandleOf, globalHandleFromName } from "./handles.ts";
import { GlobalCreateInput } from "./inputs.ts";
import { GlobalRef } from "./type.ts";
import { prepareValues, settleValues } from "./values.ts";

export const globalHandleTaken = () => ApiError.invalid("handle", "is already used by another global");

builder.mutationField("globalCreate", (t) =>
  t.prismaField({
    type: GlobalRef,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: GlobalCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { name, fields, values } = args.input;
      const problems = new Problems();
      const handle = args.input.handle ?? globalHandleFromName(name);
      if (!handle) problems.add("handle", "is required: the name gives no snake_case handle");
      else if (await ctx.db.global.findUnique({ where: { accountId_handle: { ...scope, handle } } }))
        problems.add("handle", "is already used by another global");
      const definitions = defineFields((fields ?? []) as FieldInput[]);
      const changes = await prepareValues(ctx, scope, definitions, values, problems);
      problems.throwIfAny();
      const id = newId(prefixes.global);
      const blueprintId = newId(prefixes.blueprint);
      try {
        await ctx.db.$transaction(async (tx) => {
          await tx.blueprint.create({
            data: {
              ...scope,
              id: blueprintId,
              handle: blueprintHandleOf(handle),
              title: name,
              fields: toJson(definitions),
            },
          });
          await tx.global.create({
            data: {
              ...scope,
              id,
              handle,
              name,
              blueprintId,
              data: toJson(settleValues({}, changes, definitions, definitions)),
            },
          });
        });
      } catch (error) {
        throw isUniqueViolation(error) ? globalHandleTaken() : error;
      }
      return ctx.db.global.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
