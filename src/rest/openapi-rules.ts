// The rules the schema enforces on a value, as JSON Schema keywords for the OpenAPI document: read from
// the zod schema each input field and argument declares (`validate`, kept by Pothos in the field's
// extensions), so that the document cannot say less than the server refuses. Refinements zod cannot
// express (a handle that has the shape of an ID, say) stay in the 422's details.
import type { GraphQLArgument } from "graphql";
import { z } from "zod";
import { fieldTypes } from "../schema/blueprints/fields.ts";
import { INT_MAX, INT_MIN } from "../schema/coercion-words.ts";
import { deliveryStatuses } from "../schema/webhooks/deliveries.ts";
import { eventTypes } from "../schema/webhooks/events.ts";
import type { JsonSchema } from "./openapi.ts";

/** What GraphQL's Int allows: a client sending more gets a 422. */
export const int32: JsonSchema = { type: "integer", minimum: INT_MIN, maximum: INT_MAX };

/** Keywords of a value (not of its shape), which the document adds to the type it derives itself. */
const valueKeywords = [
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "enum",
  "format",
];

interface WithOptions {
  extensions?: { pothosOptions?: { validate?: unknown } } | Record<string, unknown> | null;
}

/** The value keywords of a field's or argument's declared zod schema; `items` for a list's items. */
export function declaredRules(source: WithOptions): { own: JsonSchema; items: JsonSchema } {
  const validate = (
    source.extensions as WithOptions["extensions"] & { pothosOptions?: { validate?: unknown } }
  )?.pothosOptions?.validate;
  if (!(validate instanceof z.ZodType)) return { own: {}, items: {} };
  const json = nonNull(z.toJSONSchema(validate, { unrepresentable: "any", io: "input" }) as JsonSchema);
  const items = json.items && typeof json.items === "object" ? (json.items as JsonSchema) : {};
  return { own: pick(json), items: items.type === "object" ? {} : pick(nonNull(items)) };
}

/** A schema with rules added: bounds narrowed (never widened), other keywords set. */
export function withRules(schema: JsonSchema, rules: JsonSchema): JsonSchema {
  const result = { ...schema };
  for (const [key, value] of Object.entries(rules)) {
    const current = result[key];
    if (typeof current === "number" && typeof value === "number")
      result[key] = key.startsWith("min") ? Math.max(current, value) : Math.min(current, value);
    else result[key] = value;
  }
  return result;
}

/** `x.nullish()` is `anyOf: [x, {type: "null"}]`: the rules are x's. */
function nonNull(json: JsonSchema): JsonSchema {
  const branches = Array.isArray(json.anyOf) ? (json.anyOf as JsonSchema[]) : undefined;
  const value = branches?.filter((branch) => branch.type !== "null");
  return value?.length === 1 ? (value[0] as JsonSchema) : json;
}

function pick(json: JsonSchema): JsonSchema {
  const rules: JsonSchema = {};
  for (const key of valueKeywords) {
    const value = json[key];
    // zod's own bounds of a number (the safe integers) say nothing the type does not.
    if (value === undefined || Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER) continue;
    rules[key] = value;
  }
  return rules;
}

/** Values the schema checks in code rather than with a GraphQL enum: the sets it checks them against. */
const valueSets: Record<string, JsonSchema> = {
  "BlueprintField.type": { enum: [...fieldTypes] },
  "BlueprintFieldInput.type": {
    enum: [...fieldTypes],
    description: "Internal names (`BlueprintFieldText`) are taken too, and answered by API name.",
  },
  "WebhookDelivery.status": { enum: [...deliveryStatuses] },
  "Webhook.events": { enum: [...eventTypes, "*"] },
  "WebhookCreateInput.events": { enum: [...eventTypes, "*"] },
  "WebhookUpdateInput.events": { enum: [...eventTypes, "*"] },
};

/** A field's or argument's declared rules on its value (a list's: on it and on its items). */
export function withDeclaredRules(
  schema: JsonSchema,
  source: Parameters<typeof declaredRules>[0],
): JsonSchema {
  const { own, items } = declaredRules(source);
  const result = isValue(schema) ? withRules(schema, own) : schema;
  if (result.items && isValue(result.items as JsonSchema))
    result.items = withRules(result.items as JsonSchema, items);
  return result;
}

export function isChecked(arg: GraphQLArgument): boolean {
  return Object.keys(declaredRules(arg).own).length > 0;
}

/** A schema with a type of its own (not a reference to, or a choice of, others). */
function isValue(schema: JsonSchema): boolean {
  return schema.type !== undefined && schema.$ref === undefined;
}

/** The set of values a field takes (valueSets), null too where the field may be null. */
export function withValueSet(schema: JsonSchema, key: string): JsonSchema {
  const set = valueSets[key];
  if (!set) return schema;
  if (schema.items) return { ...schema, items: withValueSet(schema.items as JsonSchema, key) };
  const nullable = Array.isArray(schema.type) && schema.type.includes("null");
  const values = set.enum as string[];
  return { ...schema, ...set, enum: nullable ? [...values, null] : values };
}
