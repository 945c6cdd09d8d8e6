// The `entries` section: every entry, published or not, grouped under its collection's handle, read a
// page of ENTRY_PAGE at a time in creation order, so that an account of any size exports in bounded
// memory. To keep a file of 100,000 entries lean, an entry leaves out the keys at their default (below);
// `published` and `published_at` are always there.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import type { BlueprintIndex } from "./blueprints.ts";
import type { CollectionRow } from "./collections.ts";
import { creationOrder, inPages } from "./keyset.ts";
import { portableValues } from "./portable-values.ts";
import { yamlEntry, yamlItems, yamlKey } from "./yaml-text.ts";

export const ENTRY_PAGE = 500;

const entryColumns = {
  id: true,
  createdAt: true,
  blueprintId: true,
  handle: true,
  title: true,
  published: true,
  publishedAt: true,
  position: true,
  includeInSitemap: true,
  templateHandle: true,
  layoutHandle: true,
  routingOverride: true,
  data: true,
} as const;

export async function* entriesSection(
  ctx: Context,
  scope: AccountScope,
  collections: readonly CollectionRow[],
  blueprints: BlueprintIndex,
  onEntries: (count: number) => void,
): AsyncGenerator<string> {
  if (collections.length === 0) {
    yield yamlEntry("entries", {});
    return;
  }
  yield yamlKey("entries");
  for (const collection of collections) {
    let any = false;
    const pages = inPages(
      (after, take) =>
        ctx.db.entry.findMany({
          where: { ...scope, collectionId: collection.id, ...after },
          orderBy: creationOrder(),
          take,
          select: entryColumns,
        }),
      ENTRY_PAGE,
    );
    for await (const rows of pages) {
      if (!any) yield yamlKey(collection.handle, 2);
      any = true;
      const stored = rows.map((row) => ({
        fields: blueprints.get(row.blueprintId)?.fields ?? [],
        data: row.data,
      }));
      const values = await portableValues(ctx, scope, stored);
      const defaultBlueprint = collection.blueprints[0]?.id;
      const items = rows.map((row, index) => ({
        handle: row.handle,
        title: row.title,
        published: row.published,
        published_at: row.publishedAt?.toISOString() ?? null,
        ...(row.position !== 0 && { position: row.position }),
        ...(!row.includeInSitemap && { include_in_sitemap: false }),
        ...(row.blueprintId !== defaultBlueprint && {
          blueprint_handle: blueprints.get(row.blueprintId)?.handle ?? null,
        }),
        ...(row.templateHandle !== null && { template_handle: row.templateHandle }),
        ...(row.layoutHandle !== null && { layout_handle: row.layoutHandle }),
        ...(row.routingOverride !== null && { routing_override: row.routingOverride }),
        values: values[index] ?? {},
      }));
      yield yamlItems(items, 4);
      onEntries(rows.length);
    }
    if (!any) yield yamlEntry(collection.handle, [], 2);
  }
}
