// Filter and sort inputs of the content queries. A filter names one field (a system field such as
// `handle` or `published_at`, or a blueprint field handle) and one or more operators, all of which must
// hold; the filters of a list must all hold too.
import { builder } from "../builder.ts";

export interface ContentFilter {
  field: string;
  eq?: unknown;
  ne?: unknown;
  in?: unknown[] | null;
  contains?: string | null;
  starts_with?: string | null;
  ends_with?: string | null;
  lt?: unknown;
  lte?: unknown;
  gt?: unknown;
  gte?: unknown;
}

export type Operator = Exclude<keyof ContentFilter, "field">;
export const operators: Operator[] = [
  "eq",
  "ne",
  "in",
  "contains",
  "starts_with",
  "ends_with",
  "lt",
  "lte",
  "gt",
  "gte",
];

export const ContentFilterInput = builder.inputType("ContentFilter", {
  description:
    "One condition on a field: a system field (id, handle, title, content_path, position, created_at, " +
    "updated_at, published_at) or a blueprint field handle. Every operator given must hold. Values are " +
    "typed by the field: strings, numbers (number fields, position), ISO 8601 dates (dates), booleans " +
    "(toggle fields), entry IDs (entity fields).",
  fields: (t) => ({
    field: t.string({ required: true }),
    eq: t.field({ type: "JSON", description: "Equals." }),
    ne: t.field({ type: "JSON", description: "Differs from (entries without a value match too)." }),
    in: t.field({ type: ["JSON"], description: "Equals one of these (at most 100)." }),
    contains: t.string({ description: "Text containing this, ignoring case." }),
    starts_with: t.string({ description: "Text starting with this, ignoring case." }),
    ends_with: t.string({ description: "Text ending with this, ignoring case." }),
    lt: t.field({ type: "JSON", description: "Less than (numbers and dates)." }),
    lte: t.field({ type: "JSON", description: "Less than or equal (numbers and dates)." }),
    gt: t.field({ type: "JSON", description: "Greater than (numbers and dates)." }),
    gte: t.field({ type: "JSON", description: "Greater than or equal (numbers and dates)." }),
  }),
});

export type SortDirection = "asc" | "desc";

export const SortDirectionEnum = builder.enumType("SortDirection", {
  values: { asc: { value: "asc" }, desc: { value: "desc" } } as const,
});

export interface ContentSort {
  field: string;
  direction?: SortDirection | null;
}

export const ContentSortInput = builder.inputType("ContentSort", {
  description:
    "Sort on a system field (id, handle, title, content_path, position, created_at, updated_at, " +
    "published_at); entries without published_at come last either way. Blueprint fields cannot be sorted on.",
  fields: (t) => ({
    field: t.string({ required: true }),
    direction: t.field({ type: SortDirectionEnum, defaultValue: "asc" }),
  }),
});
