// PUT/PATCH /globals/:id: sent values are merged into the stored ones (null clears one); name, handle
// and fields (merged by handle, as blueprints do) change when sent. The write is compare-and-set on
// `version`, retried on the fresh row, so concurrent writers never lose each other's values; it records
// a revision of the global in its transaction (restoring one comes through here too).
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { type FieldInput, mergeFields, readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { compareAndSet } from "../compare-and-set.ts";
import type { Context } from "../context.ts";
import { ApiError, Problems } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { pruneLater } from "../revisions/prune.ts";
import { RevisionClash, recordRevision, recordsRevisions, revisionAuthor } from "../revisions/record.ts";
import { globalState } from "../revisions/state.ts";
import { recordEvents } from "../webhooks/outbox.ts";
import { globalHandleTaken } from "./create.ts";
import { blueprintHandleOf } from "./handles.ts";
import { GlobalUpdateInput } from "./inputs.ts";
import { GlobalRef } from "./type.ts";
import { prepareValues, settleValues } from "./values.ts";

export type GlobalUpdate = typeof GlobalUpdateInput.$inferInput;

/** Applies `input` to the global `id` names (an ID or a handle) and returns its ID. */
export async function applyGlobalUpdate(
  ctx: Context,
  scope: AccountScope,
  id: string,
  input: GlobalUpdate,
): Promise<string> {
  const { name, handle, fields, values } = input;
  const tokenId = recordsRevisions(ctx) ? await revisionAuthor(ctx) : null;
  return compareAndSet("global", async () => {
    const stored = await ctx.db.global.findFirst({
      where: { ...scope, ...idOrHandle(id, prefixes.global) },
      select: {
        id: true,
        handle: true,
        name: true,
        version: true,
        data: true,
        createdAt: true,
        blueprintId: true,
        blueprint: { select: { id: true, handle: true, title: true, fields: true } },
      },
    });
    // Read in two statements: a global deleted between them comes without its blueprint.
    if (!stored?.blueprint) throw ApiError.notFound("Global");
    const before = readFields(stored.blueprint.fields);
    const after = fields != null ? mergeFields(before, fields as FieldInput[]) : before;
    const problems = new Problems();
    const changes = await prepareValues(ctx, scope, after, values, problems);
    problems.throwIfAny();
    const renamed = handle != null && handle !== stored.handle;
    const data = settleValues(stored.data, changes, before, after);
    const updatedAt = new Date();
    const blueprint = {
      id: stored.blueprintId,
      handle: renamed ? blueprintHandleOf(handle) : stored.blueprint.handle,
      title: name ?? stored.blueprint.title,
      fields: fields != null ? toJson(after) : stored.blueprint.fields,
    };
    const state = globalState({
      ...stored,
      handle: renamed ? handle : stored.handle,
      name: name ?? stored.name,
      blueprint,
      data,
      updatedAt,
    });
    let revision = 0;
    try {
      const written = await ctx.db.$transaction(async (tx) => {
        const { count } = await tx.global.updateMany({
          where: { id: stored.id, version: stored.version },
          data: {
            ...(name != null && { name }),
            ...(renamed && { handle }),
            data: toJson(data),
            version: { increment: 1 },
            updatedAt,
          },
        });
        if (count === 0) return false;
        if (name != null || renamed || fields != null) {
          await tx.blueprint.update({
            where: { id: stored.blueprintId },
            data: {
              ...(name != null && { title: name }),
              ...(renamed && { handle: blueprint.handle }),
              ...(fields != null && { fields: toJson(after) }),
            },
          });
        }
        if (recordsRevisions(ctx)) {
          const recording = { ...scope, recordType: "global" as const, recordId: stored.id, tokenId };
          revision = await recordRevision(tx, { ...recording, state, at: updatedAt });
        }
        const event = { type: "global.updated", kind: "global", id: stored.id } as const;
        await recordEvents(ctx, tx, scope.accountId, [event]);
        return true;
      });
      if (!written) return undefined;
    } catch (error) {
      // A clash on the revision number rolled the write back: tried again like a lost compare-and-set.
      if (error instanceof RevisionClash) return undefined;
      throw isUniqueViolation(error) ? globalHandleTaken() : error;
    }
    if (revision > 0) pruneLater(ctx, stored.id, revision);
    return stored.id;
  });
}

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
      const id = await applyGlobalUpdate(ctx, scope, args.id, args.input);
      return ctx.db.global.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
