// The Entry as the API returns it. Blueprint values are one JSON object, `values`; REST spreads it into
// top-level keys (content-api.md: "Its blueprint values are sent and returned as top-level keys").

import { blueprintHandleOf, blueprintOf, collectionHandleOf } from "../account-lookups.ts";
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { whenReady } from "../eventually.ts";
import { expandValues } from "./expand.ts";

// No field names a `select`: an entry is always read with all its columns (the object has no `select` of its
// own), and a field's `select` made the plugin map each field of each entry to its row, a list's largest cost.
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
      resolve: (entry, _args, ctx) => blueprintHandleOf(ctx, entry),
    }),
    template_handle: t.exposeString("templateHandle", { nullable: true }),
    layout_handle: t.exposeString("layoutHandle", { nullable: true }),
    content_path: t.exposeString("contentPath"),
    collection_handle: t.string({
      resolve: (entry, _args, ctx) => collectionHandleOf(ctx, entry),
    }),
    routing_override: t.exposeString("routingOverride", { nullable: true }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    values: t.field({
      type: "JSON",
      description: "Blueprint values by field handle; entity fields are expanded into the entries they name.",
      resolve: (entry, _args, ctx) =>
        whenReady(blueprintOf(ctx, entry.accountId, entry.blueprintId), ({ fields }) =>
          expandValues(ctx, entry.accountId, readFields(fields), entry.data),
        ),
    }),
  }),
});
