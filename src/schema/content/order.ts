// Sort keys of the content queries: the sorts asked for (system fields only), else the site order
// (content-api.md: position ascending, then the collection's `orderable` tiebreak), always ending with
// the ID so that the order is total, which cursors need. Entries without published_at come last.
import type { Prisma } from "../../generated/sqlite/client.ts";
import { ApiError } from "../errors.ts";
import type { ContentSort, SortDirection } from "./inputs.ts";
import { type SystemField, systemField, systemFields } from "./system-fields.ts";

export interface SortKey {
  name: string;
  field: SystemField;
  direction: SortDirection;
}

export const MAX_SORTS = 5;

export function sortKeys(sorts: readonly ContentSort[] | null | undefined, orderable: string): SortKey[] {
  if (sorts && sorts.length > MAX_SORTS)
    throw ApiError.invalid("sort", `must have at most ${MAX_SORTS} keys`);
  const keys: SortKey[] = sorts?.length
    ? sorts.map((sort, index) => {
        const field = systemField(sort.field);
        if (!field)
          throw ApiError.invalid(
            `sort[${index}].field`,
            `must be one of ${Object.keys(systemFields).join(", ")} (blueprint fields cannot be sorted on)`,
          );
        return { name: sort.field, field, direction: sort.direction ?? "asc" };
      })
    : siteOrder(orderable);
  const ids = keys.findIndex((key) => key.name === "id");
  if (ids >= 0) return keys.slice(0, ids + 1);
  return [...keys, key("id", "asc")];
}

function siteOrder(orderable: string): SortKey[] {
  const tiebreak =
    orderable === "ascending"
      ? key("published_at", "asc")
      : orderable === "descending"
        ? key("published_at", "desc")
        : key("created_at", "desc");
  return [key("position", "asc"), tiebreak];
}

/** The sort key of a system field by its API name (`position`, `published_at`, …). */
export function key(name: string, direction: SortDirection): SortKey {
  return { name, field: systemFields[name] as SystemField, direction };
}

export function orderBy(keys: SortKey[]): Prisma.EntryOrderByWithRelationInput[] {
  return keys.map(({ field, direction }) => ({
    [field.column]: field.nullable ? { sort: direction, nulls: "last" } : direction,
  }));
}
