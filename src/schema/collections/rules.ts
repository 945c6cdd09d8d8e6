// Rules shared by collection create and update: input -> columns, template references, root routing.
import type { Collection } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { Problems } from "../errors.ts";
import { checkTemplateHandles } from "../templates/references.ts";
import type { Tx } from "../webhooks/outbox.ts";
import type { CollectionUpdate } from "./inputs.ts";

type Columns = Partial<
  Pick<
    Collection,
    | "name"
    | "handle"
    | "routing"
    | "rootRouting"
    | "orderable"
    | "indexPerPage"
    | "schemaType"
    | "templateHandle"
    | "layoutHandle"
    | "indexRouting"
    | "indexTemplateHandle"
  >
>;

/** Only the fields that were sent; null clears an optional setting. */
export function collectionColumns(input: CollectionUpdate): Columns {
  const columns: Columns = {};
  if (input.name != null) columns.name = input.name;
  if (input.handle != null) columns.handle = input.handle;
  if (input.routing != null) columns.routing = input.routing;
  if (input.root_routing != null) columns.rootRouting = input.root_routing;
  if (input.orderable != null) columns.orderable = input.orderable;
  if (input.index_per_page != null) columns.indexPerPage = input.index_per_page;
  if (input.schema_type !== undefined) columns.schemaType = input.schema_type;
  if (input.template_handle !== undefined) columns.templateHandle = input.template_handle;
  if (input.layout_handle !== undefined) columns.layoutHandle = input.layout_handle;
  if (input.index_routing !== undefined) columns.indexRouting = input.index_routing;
  if (input.index_template_handle !== undefined) columns.indexTemplateHandle = input.index_template_handle;
  return columns;
}

interface Settled {
  id?: string;
  routing: string;
  rootRouting: boolean;
}

/**
 * Problems with the collection as the write leaves it (`settled`) caused by `input`: the templates it
 * names, root routing. Read through the write's transaction, after `lockAccount`, which template renames
 * and deletes take too (templates/references.ts).
 */
export async function checkCollection(
  tx: Tx,
  scope: AccountScope,
  settled: Settled,
  input: CollectionUpdate,
  problems: Problems,
): Promise<void> {
  await checkTemplateHandles(tx, scope, templatesOf(input), problems);
  await checkRootRouting(tx, scope, settled, problems);
}

/** The templates a collection write names, by field. */
function templatesOf(input: CollectionUpdate) {
  return {
    template_handle: input.template_handle,
    layout_handle: input.layout_handle,
    index_template_handle: input.index_template_handle,
  };
}

/** Root routing needs `:handle` and is one collection's only (a site import reads this as it plans). */
export async function checkRootRouting(
  tx: Tx,
  scope: AccountScope,
  settled: Settled,
  problems: Problems,
): Promise<void> {
  if (!settled.rootRouting) return;
  if (settled.routing.replace(/^\/|\/$/g, "") !== ":handle") {
    problems.add("root_routing", "requires routing ':handle'");
  }
  const other = await tx.collection.findFirst({
    where: { ...scope, rootRouting: true, ...(settled.id && { id: { not: settled.id } }) },
    select: { handle: true },
  });
  if (other) problems.add("root_routing", `is already set on collection '${other.handle}'`);
}
