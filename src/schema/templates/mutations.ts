// POST, PUT/PATCH and DELETE /templates. Handles are unique in the account (a second POST of one is a
// 422); a rename follows into the collections and entries that use the template. Creates and updates
// record a revision of the template in their transaction.
import { type AccountScope, accountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { generatedHandle, requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { pruneLater } from "../revisions/prune.ts";
import {
  firstRevision,
  recordRevision,
  recordsRevisions,
  retryOnClash,
  revisionAuthor,
} from "../revisions/record.ts";
import { templateState } from "../revisions/state.ts";
import { trashTemplate } from "../trash/template.ts";
import { recordEvents, type Tx, withEvents } from "../webhooks/outbox.ts";
import { findTemplate } from "./find.ts";
import { TemplateCreateInput, TemplateUpdateInput } from "./inputs.ts";
import { TemplateRef } from "./type.ts";
import { renameTemplateReferences } from "./usage.ts";

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
      const now = new Date();
      const row = {
        id: newId(prefixes.template),
        handle: finalHandle,
        title: title ?? finalHandle,
        kind: kind ?? "template",
        html,
        createdAt: now,
        updatedAt: now,
      };
      try {
        const data = { ...scope, ...row };
        const event = { type: "template.created", kind: "template", id: row.id } as const;
        if (!recordsRevisions(ctx))
          return await withEvents(
            ctx,
            scope.accountId,
            [event.type],
            (db) => db.template.create({ ...query, data }),
            () => [event],
          );
        const tokenId = await revisionAuthor(ctx);
        const recording = { ...scope, recordType: "template" as const, recordId: row.id, tokenId };
        const revision = firstRevision({ ...recording, state: templateState(row), at: now });
        return await ctx.db.$transaction(async (tx) => {
          const template = await tx.template.create({ ...query, data });
          await tx.revision.createMany({ data: [revision] });
          await recordEvents(ctx, tx, scope.accountId, [event]);
          return template;
        });
      } catch (error) {
        throw isUniqueViolation(error) ? handleTaken() : error;
      }
    },
  }),
);

export type TemplateUpdate = typeof TemplateUpdateInput.$inferInput;

/** The template's handle as a rename finds it once it holds the account's lock; 404 once it is gone. */
async function handleUnderLock(ctx: Context, tx: Tx, scope: AccountScope, id: string): Promise<string> {
  await lockAccount(ctx, tx, scope.accountId);
  const current = await tx.template.findFirst({ where: { id }, select: { handle: true } });
  if (!current) throw ApiError.notFound("Template");
  return current.handle;
}

/**
 * Applies `input` to the template `id` names and returns its ID. Templates have no version to compare:
 * the row's update orders concurrent writers, and one that still loses the revision number is retried.
 */
export async function applyTemplateUpdate(
  ctx: Context,
  scope: AccountScope,
  id: string,
  input: TemplateUpdate,
): Promise<string> {
  const stored = await findTemplate(ctx, scope, id);
  const { title, handle, kind, html } = input;
  if (handle != null && handle !== stored.handle) requireHandleStyle(ctx, "handle", handle);
  const tokenId = recordsRevisions(ctx) ? await revisionAuthor(ctx) : null;
  let revision = 0;
  try {
    await retryOnClash(() =>
      ctx.db.$transaction(async (tx) => {
        // A rename takes the lock writes naming templates take, and renames the references from the
        // handle it then finds: another rename may have moved it since `stored` was read (references.ts).
        const renamed = handle != null && handle !== stored.handle;
        const current = renamed ? await handleUnderLock(ctx, tx, scope, stored.id) : stored.handle;
        const row = await tx.template.update({
          where: { id: stored.id },
          data: {
            ...(title != null && { title }),
            // Only a rename writes the handle: one sent as it is must not undo a rename meanwhile.
            ...(renamed && { handle }),
            ...(kind != null && { kind }),
            ...(html != null && { html }),
          },
        });
        if (renamed && handle !== current) await renameTemplateReferences(tx, scope, current, handle);
        if (recordsRevisions(ctx)) {
          const recording = { ...scope, recordType: "template" as const, recordId: row.id, tokenId };
          revision = await recordRevision(tx, { ...recording, state: templateState(row), at: row.updatedAt });
        }
        await recordEvents(ctx, tx, scope.accountId, [
          { type: "template.updated", kind: "template", id: row.id },
        ]);
      }),
    );
  } catch (error) {
    throw isUniqueViolation(error) ? handleTaken() : error;
  }
  if (revision > 0) pruneLater(ctx, stored.id, revision);
  return stored.id;
}

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
      const id = await applyTemplateUpdate(ctx, scope, args.id, args.input);
      return ctx.db.template.findUniqueOrThrow({ ...query, where: { id } });
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
      await trashTemplate(ctx, scope, template.id);
      return template.id;
    },
  }),
);
