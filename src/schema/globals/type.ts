// The Global as the API returns it: its embedded blueprint {id, handle, title, fields[]} and its values
// as one JSON object, `values`, which REST spreads into top-level keys.
import { readFields } from "../blueprints/fields.ts";
import { BlueprintFieldRef } from "../blueprints/type.ts";
import { builder } from "../builder.ts";
import { expandValues } from "../entries/expand.ts";
import { valuesOf } from "./values.ts";

interface EmbeddedBlueprint {
  id: string;
  handle: string;
  title: string;
  fields: unknown;
}

export const GlobalBlueprintRef = builder.objectRef<EmbeddedBlueprint>("GlobalBlueprint").implement({
  description: "The blueprint a global owns.",
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    fields: t.field({ type: [BlueprintFieldRef], resolve: (blueprint) => readFields(blueprint.fields) }),
  }),
});

export const GlobalRef = builder.prismaObject("Global", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    name: t.exposeString("name"),
    blueprint: t.field({
      type: GlobalBlueprintRef,
      select: { blueprint: { select: { id: true, handle: true, title: true, fields: true } } },
      resolve: (global) => global.blueprint,
    }),
    values: t.field({
      type: "JSON",
      description: "Values by field handle; entity fields are expanded into the entries they name.",
      select: { accountId: true, data: true, blueprint: { select: { fields: true } } },
      resolve: (global, _args, ctx) => {
        const fields = readFields(global.blueprint.fields);
        return expandValues(ctx, global.accountId, fields, valuesOf(fields, global.data));
      },
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
