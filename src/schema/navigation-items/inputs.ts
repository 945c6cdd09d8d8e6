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

const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
// An empty url is no url (forms tend to send "" for a link to an entry).
const url = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .transform((value) => value || null);
const reference = z.string().max(200, "must be at most 200 characters");
const priority = z
  .number()
  .int()
  .min(-PRIORITY_LIMIT, `must be at least -${PRIORITY_LIMIT}`)
  .max(PRIORITY_LIMIT, `must be at most ${PRIORITY_LIMIT}`);

type Fields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

const itemFields = (t: Fields) => ({
  url: t.string({ validate: url, description: "Explicit URL or path, for links not pointing to an entry." }),
  collection_handle: t.string({
    validate: reference,
    description: "With `entry_handle`: link to that entry (collection handle or `clctn_` ID).",
  }),
  entry_handle: t.string({
    validate: reference,
    description: "With `collection_handle`: the entry (handle or `cnety_` ID).",
  }),
  priority: t.int({
    validate: priority,
    description: "Order among siblings, ascending. When omitted on create: after the existing siblings.",
  }),
  parent_id: t.string({ validate: reference, description: "`ni_` ID of the parent item; null: top level." }),
});

export const NavigationItemCreateInput = builder.inputType("NavigationItemCreateInput", {
  fields: (t) => ({ title: t.string({ required: true, validate: title }), ...itemFields(t) }),
});

export const NavigationItemUpdateInput = builder.inputType("NavigationItemUpdateInput", {
  fields: (t) => ({ title: t.string({ validate: title }), ...itemFields(t) }),
});

export type NavigationItemUpdate = typeof NavigationItemUpdateInput.$inferInput;
