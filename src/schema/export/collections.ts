// The `collections` section: each collection's settings under their API names (routing, templates, index
// page, feed, order), with the blueprints it owns inline, its default one (new entries' blueprint) first.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { blueprintColumns, portableBlueprint } from "./blueprints.ts";
import { creationOrder } from "./keyset.ts";
import { yamlEntry } from "./yaml-text.ts";

export async function readCollections(ctx: Context, scope: AccountScope) {
  return ctx.db.collection.findMany({
    where: scope,
    orderBy: creationOrder(),
    // By ID, as the API lists them: the first is the collection's default blueprint.
    include: { blueprints: { select: blueprintColumns, orderBy: { id: "asc" } } },
  });
}

export type CollectionRow = Awaited<ReturnType<typeof readCollections>>[number];

export function collectionsSection(rows: readonly CollectionRow[]): string {
  return yamlEntry(
    "collections",
    rows.map((c) => ({
      handle: c.handle,
      name: c.name,
      routing: c.routing,
      root_routing: c.rootRouting,
      orderable: c.orderable,
      schema_type: c.schemaType,
      template_handle: c.templateHandle,
      layout_handle: c.layoutHandle,
      index_routing: c.indexRouting,
      index_template_handle: c.indexTemplateHandle,
      index_per_page: c.indexPerPage,
      feed_enabled: c.feedEnabled,
      feed_path: c.feedPath,
      feed_title: c.feedTitle,
      feed_description: c.feedDescription,
      feed_limit: c.feedLimit,
      blueprints: c.blueprints.map(portableBlueprint),
    })),
  );
}
