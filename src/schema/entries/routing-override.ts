// The entry's routing override (content-api.md: read-only in REST, "set in the dashboard or through a
// separate tool interface"): a GraphQL-only mutation. The override replaces the collection routing in
// the entry's content_path; null clears it and the routing applies again. A change records a revision.
import { z } from "zod";
import { type AccountScope, accountScope } from "../access.ts";
import { lockAccount } from "../account-lock.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { findCollection } from "../collections/find.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { pruneLater } from "../revisions/prune.ts";
import { recordsRevisions, revisionAuthor } from "../revisions/record.ts";
import { DOT_SEGMENTS, literalSegment, noDotSegments } from "../site-path.ts";
import { recordEvents, type Tx } from "../webhooks/outbox.ts";
import { refreshPaths } from "./paths.ts";
import { EntryRef } from "./type.ts";

const overridePattern = new RegExp(`^/?${literalSegment}(?:/${literalSegment})*/?$`);

/** A literal site path such as `about/team`, stored without leading or trailing `/`. */
export const routingOverrideSchema = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(overridePattern, "must be a path such as about/team")
  .refine(noDotSegments, DOT_SEGMENTS)
  .transform((path) => path.replace(/^\/|\/$/g, ""))
  .nullable();

export const EntryRoutingInput = builder.inputType("EntryRoutingInput", {
  fields: (t) => ({
    routing_override: t.string({
      required: false,
      validate: routingOverrideSchema,
      description: "The entry's path instead of the collection routing; null clears it.",
    }),
  }),
});

/**
 * A 422 on `routing_override` when another entry of the account is at that path already. Checked in the
 * write's transaction, which it locks first (account-lock.ts): two entries given one path at once would
 * each find it free.
 */
export async function requireFreeOverridePath(
  ctx: Context,
  tx: Tx,
  scope: AccountScope,
  entryId: string,
  override: string | null,
): Promise<void> {
  if (!override) return;
  await lockAccount(ctx, tx, scope.accountId);
  const taken = await tx.entry.findFirst({
    where: { ...scope, contentPath: `/${override}`, id: { not: entryId } },
    select: { handle: true },
  });
  if (taken) throw ApiError.invalid("routing_override", `is already the path of entry '${taken.handle}'`);
}

builder.mutationField("entryRoutingUpdate", (t) =>
  t.prismaField({
    type: EntryRef,
    description:
      "Sets or clears an entry's routing override, which moves its content_path (read-only over REST).",
    args: {
      account_id: accountArg(t.arg),
      collection_id: idArg(t.arg, "collection"),
      id: idArg(t.arg, "entry"),
      input: t.arg({ type: EntryRoutingInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const collection = await findCollection(ctx, scope, args.collection_id);
      const entry = await ctx.db.entry.findFirst({
        where: { ...scope, collectionId: collection.id, ...idOrHandle(args.id, prefixes.entry) },
        select: { id: true },
      });
      if (!entry) throw ApiError.notFound("Entry");
      const override = args.input.routing_override;
      if (override === undefined)
        return ctx.db.entry.findUniqueOrThrow({ ...query, where: { id: entry.id } });
      const editedBy = await revisionAuthor(ctx);
      const { version } = await ctx.db.$transaction(async (tx) => {
        await requireFreeOverridePath(ctx, tx, scope, entry.id, override);
        await tx.entry.update({ where: { id: entry.id }, data: { routingOverride: override } });
        await refreshPaths(tx, collection.id, [entry.id]);
        const event = {
          type: "entry.updated",
          kind: "entry",
          id: entry.id,
          collectionId: collection.id,
        } as const;
        await recordEvents(ctx, tx, scope.accountId, [event]);
        // The version bump makes a concurrent entry update retry on the new override; it comes last, once
        // the path is known, because the revision it records holds the row as it then is (db/entry-revisions.ts).
        return tx.entry.update({
          where: { id: entry.id },
          data: { editedBy, version: { increment: 1 } },
          select: { version: true },
        });
      });
      if (recordsRevisions(ctx)) pruneLater(ctx, entry.id, version + 1);
      return ctx.db.entry.findUniqueOrThrow({ ...query, where: { id: entry.id } });
    },
  }),
);
