// The rules the schema enforces on a value, as JSON Schema keywords for the OpenAPI document: read from
// the zod schema each input field and argument declares (`validate`, kept by Pothos in the field's
// extensions), so that the document cannot say less than the server refuses. Refinements zod cannot
// express (a handle that has the shape of an ID, say) stay in the 422's details.
import { z } from "zod";
import { INT_MAX, INT_MIN } from "../schema/coercion-words.ts";
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
