// The Collection as the API returns it (content-api.md, "Collection": response fields).

import { BlueprintRef } from "../blueprints/type.ts";
import { builder } from "../builder.ts";

export const OrderableEnum = builder.enumType("Orderable", {
  description: "Tiebreak on publish date after position: `no` sorts newest created first.",
  values: ["no", "ascending", "descending"] as const,
});

export const CollectionRef = builder.prismaObject("Collection", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    name: t.exposeString("name"),
    routing: t.exposeString("routing"),
    root_routing: t.exposeBoolean("rootRouting"),
    orderable: t.field({ type: OrderableEnum, resolve: (c) => c.orderable as "no" }),
    schema_type: t.exposeString("schemaType", { nullable: true }),
    template_handle: t.exposeString("templateHandle", { nullable: true }),
    layout_handle: t.exposeString("layoutHandle", { nullable: true }),
    index_template_handle: t.exposeString("indexTemplateHandle", { nullable: true }),
    index_routing: t.exposeString("indexRouting", { nullable: true }),
    index_per_page: t.exposeInt("indexPerPage"),
    feed_enabled: t.exposeBoolean("feedEnabled"),
    feed_path: t.exposeString("feedPath", { nullable: true }),
    feed_title: t.exposeString("feedTitle", { nullable: true }),
    feed_description: t.exposeString("feedDescription", { nullable: true }),
    feed_limit: t.exposeInt("feedLimit"),
    blueprint_handles: t.stringList({
      select: { blueprints: { select: { handle: true }, orderBy: { id: "asc" } } },
      resolve: (c) => c.blueprints.map((blueprint) => blueprint.handle),
    }),
    entries_count: t.relationCount("entries"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    blueprints: t.relation("blueprints", { type: BlueprintRef, query: { orderBy: { id: "asc" } } }),
  }),
});
