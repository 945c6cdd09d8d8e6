// What clients may write on a navigation item (content-api.md, "Navigation and navigation item").
// An item points either at an entry (`collection_handle` + `entry_handle`) or at an explicit `url`.
import type { ArgBuilder } from "@pothos/core";
import { z } from "zod";
import { builder } from "../builder.ts";

/** An item `:id` in a path: only its `ni_` ID, items having no handle. */
// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
export const itemIdArg = (arg: ArgBuilder<any>) =>
  arg.id({ required: true, description: "The item's prefix ID (ni_...); items have no handle." });

/** Priorities stay far enough from the 32-bit limit that "after the last sibling" (max + 1) always fits. */
export const PRIORITY_LIMIT = 1_000_000_000;

export const titleSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
// An empty url is no url (forms tend to send "" for a link to an entry).
export const urlSchema = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .transform((value) => value || null);
export const referenceSchema = z.string().max(200, "must be at most 200 characters");
export const prioritySchema = z
  .number()
  .int()
  .min(-PRIORITY_LIMIT, `must be at least -${PRIORITY_LIMIT}`)
  .max(PRIORITY_LIMIT, `must be at most ${PRIORITY_LIMIT}`);

type Fields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

const itemFields = (t: Fields) => ({
  url: t.string({
    validate: urlSchema,
    description: "Explicit URL or path, for links not pointing to an entry.",
  }),
  collection_handle: t.string({
    validate: referenceSchema,
    description: "With `entry_handle`: link to that entry (collection handle or `clctn_` ID).",
  }),
  entry_handle: t.string({
    validate: referenceSchema,
    description: "With `collection_handle`: the entry (handle or `cnety_` ID).",
  }),
  priority: t.int({
    validate: prioritySchema,
    description: "Order among siblings, ascending. When omitted on create: after the existing siblings.",
  }),
  parent_id: t.string({
    validate: referenceSchema,
    description: "`ni_` ID of the parent item; null: top level.",
  }),
});

export const NavigationItemCreateInput = builder.inputType("NavigationItemCreateInput", {
  fields: (t) => ({ title: t.string({ required: true, validate: titleSchema }), ...itemFields(t) }),
});

export const NavigationItemUpdateInput = builder.inputType("NavigationItemUpdateInput", {
  fields: (t) => ({ title: t.string({ validate: titleSchema }), ...itemFields(t) }),
});

export type NavigationItemUpdate = typeof NavigationItemUpdateInput.$inferInput;

/** Bounds of a whole tree written at once (navigationItemsReplace): a menu, not a sitemap. */
export const TREE_DEPTH_LIMIT = 10;
export const TREE_ITEMS_LIMIT = 500;
/** The same words whether a tree is written whole or item by item (rules.ts). */
export const TREE_TOO_DEEP = `must not nest deeper than ${TREE_DEPTH_LIMIT} levels`;
export const TREE_TOO_LARGE = `must hold at most ${TREE_ITEMS_LIMIT} items, children included`;

export interface TreeItemInput {
  id?: string | null;
  title: string;
  url?: string | null;
  collection_handle?: string | null;
  entry_handle?: string | null;
  priority?: number | null;
  created_at?: string | null;
  updated_at?: string | null;
  children?: TreeItemInput[] | null;
}

/** Said of `created_at` and `updated_at`, which a tree read carries and a write may carry back. */
const readOnlyTimestamp =
  "Read-only: taken (and ignored) so that a tree read from the navigation can be written back as it is.";

// No `validate` here: the replace checks every item itself with the schemas above, so that field problems,
// unknown links and the limits come back together in one 422 (tree-plan.ts).
export const NavigationTreeItemInput = builder.inputRef<TreeItemInput>("NavigationTreeItemInput").implement({
  description: "An item with its children; its place in the array is its order among its siblings.",
  fields: (t) => ({
    id: t.string({
      description:
        "`ni_` ID of an item of this navigation to keep (moved, changed or as it is); without it, a new item.",
    }),
    title: t.string({ required: true, description: "1 to 200 characters." }),
    url: t.string({ description: "Explicit URL or path, for links not pointing to an entry." }),
    collection_handle: t.string({
      description: "With `entry_handle`: link to that entry (collection handle or `clctn_` ID).",
    }),
    entry_handle: t.string({ description: "With `collection_handle`: the entry (handle or `cnety_` ID)." }),
    priority: t.int({
      description:
        "Kept while it keeps the item after its previous sibling in the array; otherwise (or when omitted) " +
        "the item gets the previous sibling's priority plus one (0 for a first item).",
    }),
    created_at: t.string({ description: readOnlyTimestamp }),
    updated_at: t.string({ description: readOnlyTimestamp }),
    children: t.field({
      type: [NavigationTreeItemInput],
      description: `Items below this one, in order; at most ${TREE_DEPTH_LIMIT} levels in all.`,
    }),
  }),
});
