// What clients may write on a global: name, handle, the embedded blueprint's fields, and the values
// (sent as top-level keys; REST gathers them into `values`).
import { z } from "zod";
import { BlueprintFieldInput, globalFieldsSchema } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { globalHandleSchema } from "./handles.ts";

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

const values = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) =>
  t.field({
    type: "JSON",
    description: "Values by field handle; unknown handles are dropped, null clears a value.",
  });

export const GlobalCreateInput = builder.inputType("GlobalCreateInput", {
  fields: (t) => ({
    name: t.string({ required: true, validate: name }),
    handle: t.string({
      validate: globalHandleSchema,
      description: "snake_case (a Liquid variable name); generated from the name when omitted.",
    }),
    fields: t.field({ type: [BlueprintFieldInput], validate: globalFieldsSchema }),
    values: values(t),
  }),
});

export const GlobalUpdateInput = builder.inputType("GlobalUpdateInput", {
  fields: (t) => ({
    name: t.string({ validate: name }),
    handle: t.string({ validate: globalHandleSchema }),
    fields: t.field({
      type: [BlueprintFieldInput],
      validate: globalFieldsSchema,
      description: "Matched by handle: new fields are added, sent ones updated, missing ones removed.",
    }),
    values: values(t),
  }),
});
