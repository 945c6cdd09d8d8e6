// Blueprint field definitions: {handle, display, type, position, options}. Types are accepted by their
// API name or their internal name (BlueprintFieldText) and always returned by API name.
import { z } from "zod";
import { builder } from "../builder.ts";
import { NON_FINITE_MESSAGE, nonFiniteNumberAt } from "../json-numbers.ts";

export const fieldTypes = [
  "text",
  "rich_text",
  "raw_html",
  "number",
  "image",
  "video",
  "gallery",
  "template",
  "entity",
  "collection",
  "toggle",
  "enumerate",
  "list",
  "dictionary",
] as const;

export type FieldType = (typeof fieldTypes)[number];

export interface FieldDefinition {
  handle: string;
  display: string;
  type: FieldType;
  position: number;
  options: Record<string, unknown>;
}

export const MAX_FIELDS = 100;

/** Keys an entry already uses at its top level; a field by that name could never be set or read. */
export const reservedFieldHandles = new Set([
  "id",
  "handle",
  "title",
  "published",
  "published_at",
  "include_in_sitemap",
  "position",
  "blueprint_handle",
  "template_handle",
  "layout_handle",
  "content_path",
  "collection_handle",
  "routing_override",
  "created_at",
  "updated_at",
]);

const internalNames = new Map<string, FieldType>(
  fieldTypes.map((type) => [
    `BlueprintField${type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
    type,
  ]),
);

const typeSchema = z.string().transform((value, ctx) => {
  const type = (fieldTypes as readonly string[]).includes(value)
    ? (value as FieldType)
    : internalNames.get(value);
  if (!type) ctx.addIssue({ code: "custom", message: `must be one of ${fieldTypes.join(", ")}` });
  return type ?? "text";
});

const optionsSchema = z.record(z.string(), z.unknown()).superRefine((options, ctx) => {
  const nonFinite = nonFiniteNumberAt(options);
  if (nonFinite) ctx.addIssue({ code: "custom", path: nonFinite, message: NON_FINITE_MESSAGE });
});

const optionRules: Partial<Record<FieldType, z.ZodType>> = {
  enumerate: z.object({ enumerations: z.array(z.string()).optional() }),
  entity: z.object({ collection: z.string().optional(), multiple: z.boolean().optional() }),
  number: z.object({
    number_type: z.string().optional(),
    decimal_places: z.number().int().min(0).max(20).optional(),
  }),
};

export const fieldHandleSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    "must start with a letter or '_' and contain only letters, digits and '_' (at most 64)",
  )
  // `__proto__` and friends would be object internals, not values, in every consumer of the JSON.
  .refine((handle) => !handle.startsWith("__"), "must not start with '__'");

/** One field of a blueprint whose values sit next to `owner`'s own keys, named in `reserved`. */
function fieldSchemaOf(reserved: ReadonlySet<string>, owner: "entry" | "global") {
  return z
    .object({
      handle: fieldHandleSchema.refine(
        (handle) => !reserved.has(handle),
        `is reserved for the ${owner} itself`,
      ),
      display: z.string().max(200).nullish(),
      type: typeSchema,
      position: z.number().int().nullish(),
      options: optionsSchema.nullish(),
    })
    .superRefine((field, ctx) => {
      const rule = optionRules[field.type];
      const result = rule?.safeParse(field.options ?? {});
      for (const issue of result?.error?.issues ?? []) {
        ctx.addIssue({ code: "custom", path: ["options", ...issue.path], message: issue.message });
      }
    });
}

/** A field list whose handles are unique and avoid the owner's own top-level keys. */
function fieldList(reserved: ReadonlySet<string>, owner: "entry" | "global") {
  return z
    .array(fieldSchemaOf(reserved, owner))
    .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`)
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((field, index) => {
        if (seen.has(field.handle))
          ctx.addIssue({ code: "custom", path: [index, "handle"], message: "is used twice" });
        seen.add(field.handle);
      });
    });
}

/** The fields of a blueprint, whose values sit next to an entry's own keys. */
export const fieldsSchema = fieldList(reservedFieldHandles, "entry");

/**
 * A global's values sit next to its own keys (content-api.md, "Global": `id`, `handle`, `name`,
 * `blueprint`, `created_at`, `updated_at`, and `fields` on input), so only those names are taken: an
 * entry's keys are free, and the `site` global of a hosted-service theme has its `title` field.
 */
export const globalReservedHandles: ReadonlySet<string> = new Set([
  "id",
  "handle",
  "name",
  "blueprint",
  "fields",
  "created_at",
  "updated_at",
]);

export const globalFieldsSchema = fieldList(globalReservedHandles, "global");

export type FieldInput = z.output<ReturnType<typeof fieldSchemaOf>>;

export const BlueprintFieldInput = builder.inputType("BlueprintFieldInput", {
  fields: (t) => ({
    handle: t.string({ required: true }),
    display: t.string(),
    type: t.string({ required: true, description: "API type name (text, rich_text, entity, ...)." }),
    position: t.int(),
    options: t.field({ type: "JSON" }),
  }),
});

function humanize(handle: string): string {
  const words = handle.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Definitions for a new blueprint: display defaults to the humanized handle, position to the order sent. */
export function defineFields(fields: FieldInput[]): FieldDefinition[] {
  return fields.map((field, index) => ({
    handle: field.handle,
    display: field.display ?? humanize(field.handle),
    type: field.type,
    position: field.position ?? index,
    options: field.options ?? {},
  }));
}

/** Update by handle: sent fields are added or updated, fields missing from the request are removed. */
export function mergeFields(current: readonly FieldDefinition[], sent: FieldInput[]): FieldDefinition[] {
  const byHandle = new Map(current.map((field) => [field.handle, field]));
  return sent.map((field, index) => {
    const old = byHandle.get(field.handle);
    return {
      handle: field.handle,
      display: field.display ?? old?.display ?? humanize(field.handle),
      type: field.type,
      position: field.position ?? old?.position ?? index,
      options: field.options ?? old?.options ?? {},
    };
  });
}

/**
 * The stored JSON as definitions, in position order: sorted once per stored value (a kept blueprint's
 * fields are read for every row of a list), so shared and `readonly`. Not frozen here: the read cache
 * freezes what it keeps, and stops at what is frozen already.
 */
export function readFields(stored: unknown): readonly FieldDefinition[] {
  if (!Array.isArray(stored)) return [];
  let sorted = sortedFields.get(stored);
  if (!sorted) {
    sorted = [...(stored as FieldDefinition[])].sort((a, b) => a.position - b.position);
    sortedFields.set(stored, sorted);
  }
  return sorted;
}

const sortedFields = new WeakMap<object, readonly FieldDefinition[]>();
