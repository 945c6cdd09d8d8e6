// The Blueprint and its field definitions as the API returns them.
import { builder } from "../builder.ts";
import { type FieldDefinition, readFields } from "./fields.ts";

export const BlueprintFieldRef = builder.objectRef<FieldDefinition>("BlueprintField").implement({
  fields: (t) => ({
    handle: t.exposeString("handle"),
    display: t.exposeString("display"),
    type: t.exposeString("type", { description: "API type name, e.g. text, rich_text, entity." }),
    position: t.exposeInt("position"),
    options: t.field({ type: "JSON", resolve: (field) => field.options }),
  }),
});

export const BlueprintRef = builder.prismaObject("Blueprint", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    fields: t.field({ type: [BlueprintFieldRef], resolve: (blueprint) => readFields(blueprint.fields) }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
