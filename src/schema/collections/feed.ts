// The collection's RSS feed settings (content-api.md: `feed_*` are read-only in REST, "configured in the
// dashboard or through a separate tool interface"): a GraphQL-only mutation. Only the sent fields change;
// null clears `feed_path`, `feed_title` and `feed_description`.
import { z } from "zod";
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { Problems } from "../errors.ts";
import { DOT_SEGMENTS, literalSegment, noDotSegments } from "../site-path.ts";
import { type Tx, withEvents } from "../webhooks/outbox.ts";
import { findCollection } from "./find.ts";
import { CollectionRef } from "./type.ts";

const feedPathPattern = new RegExp(`^/?${literalSegment}(?:/${literalSegment})*$`);

/** A site path such as `blog/feed.xml`, stored without the leading `/`. */
export const feedPathSchema = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(feedPathPattern, "must be a path such as blog/feed.xml")
  .refine(noDotSegments, DOT_SEGMENTS)
  .transform((path) => path.replace(/^\//, ""))
  .nullish();

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullish();

export const CollectionFeedInput = builder.inputType("CollectionFeedInput", {
  description: "RSS feed settings. A feed needs a path, unique among the account's enabled feeds.",
  fields: (t) => ({
    feed_enabled: t.boolean({ description: "Serve the feed at `feed_path`." }),
    feed_path: t.string({
      validate: feedPathSchema,
      description: "Such as `blog/feed.xml`; null clears it.",
    }),
    feed_title: t.string({
      validate: text(200),
      description: "Null clears it (the collection's name is used).",
    }),
    feed_description: t.string({ validate: text(2000), description: "Null clears it." }),
    feed_limit: t.int({
      validate: z.number().int().min(1, "must be 1 or more").max(100, "must be at most 100"),
      description: "How many of the newest published entries the feed lists (1-100, default 20).",
    }),
  }),
});

builder.mutationField("collectionFeedUpdate", (t) =>
  t.prismaField({
    type: CollectionRef,
    description: "Changes a collection's feed settings (not available over REST, where they are read-only).",
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "collection"),
      input: t.arg({ type: CollectionFeedInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findCollection(ctx, scope, args.id);
      const { input } = args;
      const enabled = input.feed_enabled ?? stored.feedEnabled;
      const path = input.feed_path !== undefined ? input.feed_path : stored.feedPath;
      const problems = new Problems();
      if (enabled && !path) problems.add("feed_path", "is required when feed_enabled is true");
      if (enabled && path) {
        const other = await ctx.db.collection.findFirst({
          where: { ...scope, feedEnabled: true, feedPath: path, id: { not: stored.id } },
          select: { handle: true },
        });
        if (other) problems.add("feed_path", `is already the feed of collection '${other.handle}'`);
      }
      problems.throwIfAny();
      const event = { type: "collection.updated", kind: "collection", id: stored.id } as const;
      const write = (db: Tx) =>
        db.collection.update({
          ...query,
          where: { id: stored.id },
          data: {
            ...(input.feed_enabled != null && { feedEnabled: input.feed_enabled }),
            ...(input.feed_path !== undefined && { feedPath: input.feed_path }),
            ...(input.feed_title !== undefined && { feedTitle: input.feed_title || null }),
            ...(input.feed_description !== undefined && { feedDescription: input.feed_description || null }),
            ...(input.feed_limit != null && { feedLimit: input.feed_limit }),
          },
        });
      return withEvents(ctx, scope.accountId, [event.type], write, () => [event]);
    },
  }),
);
