// What clients may write on a collection (content-api.md, "Collection": writable fields).
// Read-only values (feed_*, blueprint_handles, entries_count) are not inputs, so REST ignores them.
import { z } from "zod";
import { BlueprintFieldInput, fieldsSchema } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { handleSchema } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { indexRoutingSchema, routingSchema } from "./routing.ts";
import { OrderableEnum } from "./type.ts";

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const templateHandle = z.string().max(200).nullish();

export const InlineBlueprintInput = builder.inputType("InlineBlueprintInput", {
  description: "A blueprint created with the collection; title and handle default to the collection's.",
  fields: (t) => ({
    title: t.string({ validate: z.string().trim().min(1).max(200) }),
    handle: t.string({ validate: handleSchema(prefixes.blueprint) }),
    fields: t.field({ type: [BlueprintFieldInput], validate: fieldsSchema }),
  }),
});

const settings = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) => ({
  root_routing: t.boolean({ description: "Serve this collection's entry `index` at `/`." }),
  orderable: t.field({ type: OrderableEnum }),
  schema_type: t.string({
    validate: z
      .string()
      .max(100)
      .regex(/^[A-Za-z]+$/, "must be a schema.org type name")
      .nullish(),
  }),
  template_handle: t.string({ validate: templateHandle }),
  layout_handle: t.string({ validate: templateHandle }),
  index_routing: t.string({ validate: indexRoutingSchema.nullish() }),
  index_template_handle: t.string({ validate: templateHandle }),
  index_per_page: t.int({
    validate: z.number().int().min(1, "must be 1 or more").max(100, "must be at most 100"),
  }),
});

export const CollectionCreateInput = builder.inputType("CollectionCreateInput", {
  fields: (t) => ({
    name: t.string({ required: true, validate: name }),
    handle: t.string({ required: true, validate: handleSchema(prefixes.collection) }),
    routing: t.string({ required: true, validate: routingSchema }),
    ...settings(t),
    blueprint_handle: t.string({ description: "Attach an existing blueprint; wins over `blueprint`." }),
    blueprint: t.field({ type: InlineBlueprintInput }),
  }),
});

export const CollectionUpdateInput = builder.inputType("CollectionUpdateInput", {
  fields: (t) => ({
    name: t.string({ validate: name }),
    handle: t.string({ validate: handleSchema(prefixes.collection) }),
    routing: t.string({ validate: routingSchema }),
    ...settings(t),
  }),
});

export type CollectionCreate = typeof CollectionCreateInput.$inferInput;
export type CollectionUpdate = typeof CollectionUpdateInput.$inferInput;
