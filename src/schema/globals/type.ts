// The Global as the API returns it: its embedded blueprint {id, handle, title, fields[]} and its values
// as one JSON object, `values`, which REST spreads into top-level keys.
import { readFields } from "../blueprints/fields.ts";
import { BlueprintFieldRef } from "../blueprints/type.ts";
import { builder } from "../builder.ts";
import { expandValues } from "../entries/expand.ts";
import { ApiError } from "../errors.ts";
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

/**
 * A global's blueprint, read after the global in a statement of its own: a delete between the two (which
 * takes both) leaves it without one, as if it had been gone before.
 */
export function ownBlueprint<T>(global: { blueprint: T | null }): T {
  if (!global.blueprint) throw ApiError.notFound("Global");
  return global.blueprint;
}

export const GlobalRef = builder.prismaObject("Global", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    name: t.exposeString("name"),
    blueprint: t.field({
      type: GlobalBlueprintRef,
      select: { blueprint: { select: { id: true, handle: true, title: true, fields: true } } },
      resolve: (global) => ownBlueprint(global),
    }),
    values: t.field({
      type: "JSON",
      description: "Values by field handle; entity fields are expanded into the entries they name.",
      select: { accountId: true, data: true, blueprint: { select: { fields: true } } },
      resolve: (global, _args, ctx) => {
        const fields = readFields(ownBlueprint(global).fields);
        return expandValues(ctx, global.accountId, fields, valuesOf(fields, global.data));
      },
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
