// PUT/PATCH /globals/:id: sent values are merged into the stored ones (null clears one); name, handle
// and fields (merged by handle, as blueprints do) change when sent. The write is compare-and-set on
// `version`, retried on the fresh row, so concurrent writers never lose each other's values.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { type FieldInput, mergeFields, readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { compareAndSet } from "../compare-and-set.ts";
import { ApiError, Problems } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { globalHandleTaken } from "./create.ts";
import { blueprintHandleOf } from "./handles.ts";
import { GlobalUpdateInput } from "./inputs.ts";
import { GlobalRef } from "./type.ts";
import { prepareValues, settleValues } from "./values.ts";

builder.mutationField("globalUpdate", (t) =>
  t.prismaField({
    type: GlobalRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "global"),
      input: t.arg({ type: GlobalUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { name, handle, fields, values } = args.input;
      return compareAndSet("global", async () => {
        const stored = await ctx.db.global.findFirst({
          where: { ...scope, ...idOrHandle(args.id, prefixes.global) },
          select: {
            id: true,
            handle: true,
            version: true,
            data: true,
            blueprintId: true,
            blueprint: { select: { fields: true } },
          },
        });
        if (!stored) throw ApiError.notFound("Global");
        const before = readFields(stored.blueprint.fields);
        const after = fields != null ? mergeFields(before, fields as FieldInput[]) : before;
        const problems = new Problems();
        const changes = await prepareValues(ctx, scope, after, values, problems);
        problems.throwIfAny();
        const renamed = handle != null && handle !== stored.handle;
        try {
          const written = await ctx.db.$transaction(async (tx) => {
            const { count } = await tx.global.updateMany({
              where: { id: stored.id, version: stored.version },
              data: {
                ...(name != null && { name }),
                ...(renamed && { handle }),
                data: toJson(settleValues(stored.data, changes, before, after)),
                version: { increment: 1 },
                updatedAt: new Date(),
              },
            });
            if (count === 0) return false;
            if (name != null || renamed || fields != null) {
              await tx.blueprint.update({
                where: { id: stored.blueprintId },
                data: {
                  ...(name != null && { title: name }),
                  ...(renamed && { handle: blueprintHandleOf(handle) }),
                  ...(fields != null && { fields: toJson(after) }),
                },
              });
            }
            return true;
          });
          if (!written) return undefined;
        } catch (error) {
          throw isUniqueViolation(error) ? globalHandleTaken() : error;
        }
        return ctx.db.global.findUniqueOrThrow({ ...query, where: { id: stored.id } });
      });
    },
  }),
);
