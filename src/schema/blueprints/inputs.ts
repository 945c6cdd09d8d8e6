// What clients may write on a blueprint: title, handle (generated from the title when omitted), fields.
import { z } from "zod";
import { builder } from "../builder.ts";
import { handleSchema } from "../handles.ts";
import { prefixes } from "../ids.ts";
import { BlueprintFieldInput, fieldsSchema } from "./fields.ts";

const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const BlueprintCreateInput = builder.inputType("BlueprintCreateInput", {
  fields: (t) => ({
    title: t.string({ required: true, validate: title }),
    handle: t.string({ validate: handleSchema(prefixes.blueprint) }),
    fields: t.field({ type: [BlueprintFieldInput], validate: fieldsSchema }),
  }),
});

export const BlueprintUpdateInput = builder.inputType("BlueprintUpdateInput", {
  fields: (t) => ({
    title: t.string({ validate: title }),
    handle: t.string({ validate: handleSchema(prefixes.blueprint) }),
    fields: t.field({
      type: [BlueprintFieldInput],
      validate: fieldsSchema,
      description: "Matched by handle: new fields are added, sent ones updated, missing ones removed.",
    }),
  }),
});
