// POST /globals: creates the global and its own blueprint in one transaction, with its first revision.
// Always creates: a handle the account already uses is a 422 on `handle`.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { defineFields, type FieldInput } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { ApiError, Problems } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { firstRevision, recordsRevisions, revisionAuthor } from "../revisions/record.ts";
import { globalState } from "../revisions/state.ts";
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
      const blueprint = {
        id: newId(prefixes.blueprint),
        handle: blueprintHandleOf(handle),
        title: name,
        fields: toJson(definitions),
      };
      const now = new Date();
      const row = { id, handle, name, data: settleValues({}, changes, definitions, definitions) };
      const state = globalState({ ...row, blueprint, createdAt: now, updatedAt: now });
      const tokenId = recordsRevisions(ctx) ? await revisionAuthor(ctx) : null;
      try {
        await ctx.db.$transaction(async (tx) => {
          await tx.blueprint.create({ data: { ...scope, ...blueprint } });
          await tx.global.create({
            data: {
              ...scope,
              ...row,
              blueprintId: blueprint.id,
              data: toJson(row.data),
              createdAt: now,
              updatedAt: now,
            },
          });
          if (recordsRevisions(ctx)) {
            const recording = {
              ...scope,
              recordType: "global" as const,
              recordId: id,
              tokenId,
              state,
              at: now,
            };
            await tx.revision.createMany({ data: [firstRevision(recording)] });
          }
        });
      } catch (error) {
        throw isUniqueViolation(error) ? globalHandleTaken() : error;
      }
      return ctx.db.global.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
