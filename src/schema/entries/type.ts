// The Entry as the API returns it. Blueprint values are one JSON object, `values`; REST spreads it into
// top-level keys (content-api.md: "Its blueprint values are sent and returned as top-level keys").

import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { expandValues } from "./expand.ts";

export const EntryRef = builder.prismaObject("Entry", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    published: t.exposeBoolean("published"),
    published_at: t.expose("publishedAt", { type: "DateTime", nullable: true }),
    include_in_sitemap: t.exposeBoolean("includeInSitemap"),
    position: t.exposeInt("position"),
    blueprint_handle: t.string({
      select: { blueprint: { select: { handle: true } } },
      resolve: (entry) => entry.blueprint.handle,
    }),
    template_handle: t.exposeString("templateHandle", { nullable: true }),
    layout_handle: t.exposeString("layoutHandle", { nullable: true }),
    content_path: t.exposeString("contentPath"),
    collection_handle: t.string({
      select: { collection: { select: { handle: true } } },
      resolve: (entry) => entry.collection.handle,
    }),
    routing_override: t.exposeString("routingOverride", { nullable: true }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    values: t.field({
      type: "JSON",
      description: "Blueprint values by field handle; entity fields are expanded into the entries they name.",
      select: { accountId: true, data: true, blueprint: { select: { fields: true } } },
      resolve: (entry, _args, ctx) =>
        expandValues(ctx, entry.accountId, readFields(entry.blueprint.fields), entry.data),
    }),
  }),
});
