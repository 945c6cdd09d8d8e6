// What clients may write on an entry (content-api.md, "Entry": core fields). Blueprint values travel in
// `values`; `content_path`, `collection_handle` and `routing_override` are read-only here.
import { z } from "zod";
import { builder } from "../builder.ts";
import { handleSchema } from "../handles.ts";
import { prefixes } from "../ids.ts";

const title = z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters");
const templateHandle = z.string().max(200).nullish();
const position = z.number().int().min(-1_000_000_000).max(1_000_000_000);

const common = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) => ({
  published: t.boolean({ description: "Publicly visible; default true." }),
  published_at: t.field({
    type: "DateTime",
    description: "Required when the routing uses :year, :month or :day.",
  }),
  include_in_sitemap: t.boolean(),
  position: t.int({ description: "Manual sort order, lower first; default 0.", validate: position }),
  template_handle: t.string({ validate: templateHandle }),
  layout_handle: t.string({ validate: templateHandle }),
  values: t.field({
    type: "JSON",
    description: "Blueprint values by field handle; unknown handles are dropped.",
  }),
});

export const EntryCreateInput = builder.inputType("EntryCreateInput", {
  fields: (t) => ({
    handle: t.string({ required: true, validate: handleSchema(prefixes.entry) }),
    title: t.string({ required: true, validate: title }),
    blueprint_handle: t.string({ description: "One of the collection's blueprints; default its first." }),
    ...common(t),
  }),
});

export const EntryUpdateInput = builder.inputType("EntryUpdateInput", {
  fields: (t) => ({
    handle: t.string({ validate: handleSchema(prefixes.entry) }),
    title: t.string({ validate: title }),
    ...common(t),
  }),
});

export type EntryCreate = typeof EntryCreateInput.$inferInput;
export type EntryUpdate = typeof EntryUpdateInput.$inferInput;
