// What frontend apps read: published entries, with their blueprint values as one JSON object whose
// entity fields are expanded into the published entries they name (batched per request by the loaders,
// so a list costs the same number of queries however long it is).
import { blueprintHandleOf, blueprintOf, collectionHandleOf } from "../account-lookups.ts";
import { readFields } from "../blueprints/fields.ts";
import { builder } from "../builder.ts";
import { expandValues } from "../entries/expand.ts";
import { whenReady } from "../eventually.ts";

// No field names a `select`, as EntryRef (entries/type.ts): entries are read with all their columns.
export const PublishedEntryRef = builder.prismaObject("Entry", {
  variant: "PublishedEntry",
  description: "A published entry, as a frontend app sees it.",
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    published_at: t.expose("publishedAt", { type: "DateTime", nullable: true }),
    position: t.exposeInt("position"),
    content_path: t.exposeString("contentPath"),
    include_in_sitemap: t.exposeBoolean("includeInSitemap"),
    collection_handle: t.string({
      resolve: (entry, _args, ctx) => collectionHandleOf(ctx, entry),
    }),
    blueprint_handle: t.string({
      resolve: (entry, _args, ctx) => blueprintHandleOf(ctx, entry),
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    values: t.field({
      type: "JSON",
      description:
        "Blueprint values by field handle, in the REST formats (content-api.md, field value formats): " +
        "text as strings, numbers, booleans, image URL paths, videos {url, video_id, thumbnail}, and entity " +
        "fields expanded into {id, title, handle, ...fields, content_path, published_at} of published " +
        "entries only (an array for multiple; null or left out when unpublished or deleted).",
      resolve: (entry, _args, ctx) =>
        whenReady(blueprintOf(ctx, entry.accountId, entry.blueprintId), ({ fields }) =>
          expandValues(ctx, entry.accountId, readFields(fields), entry.data, { publishedOnly: true }),
        ),
    }),
  }),
});
