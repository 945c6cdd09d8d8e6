// JSON Schemas of tool arguments, derived from the schema's own argument and input types, so that what an
// assistant is told it may send is what the operation takes (content-api.md's rules stay in src/schema:
// the schemas here describe, the operation validates).
import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: (string | null)[];
  format?: string;
  additionalProperties?: boolean;
}

const scalars: Record<string, JsonSchema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  DateTime: { type: "string", format: "date-time" },
  // Any JSON value: blueprint values, filter operands.
  JSON: {},
};

/** Input objects nest at most a few levels in this schema; a self-referencing one stops here. */
const MAX_DEPTH = 6;

/** A value that may be null where the schema takes null ("null clears it"): nullable GraphQL types. */
export function typeSchema(type: GraphQLInputType, depth = 0): JsonSchema {
  if (isNonNullType(type)) return valueSchema(type.ofType, depth);
  return nullable(valueSchema(type, depth));
}

function valueSchema(type: GraphQLInputType, depth: number): JsonSchema {
  if (isNonNullType(type)) return valueSchema(type.ofType, depth);
  if (isListType(type)) return { type: "array", items: typeSchema(type.ofType, depth) };
  if (isEnumType(type)) return { type: "string", enum: type.getValues().map((value) => value.name) };
  if (isInputObjectType(type)) {
    if (depth >= MAX_DEPTH) return { type: "object" };
    return objectSchema(Object.values(type.getFields()), depth + 1);
  }
  return { ...(scalars[type.name] ?? { type: "string" }) };
}

function nullable(schema: JsonSchema): JsonSchema {
  // Without a type (JSON), any value is allowed already, null included.
  if (typeof schema.type !== "string") return schema;
  return {
    ...schema,
    type: [schema.type, "null"],
    ...(schema.enum && { enum: [...schema.enum, null] }),
  };
}

/** The type a value must have besides null ("string" for ["string", "null"]). */
export function mainType(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
}

/** An object of the given arguments or input fields, with their descriptions and required ones. */
export function objectSchema(
  fields: readonly (GraphQLArgument | GraphQLInputField)[],
  depth = 0,
  rename: (name: string) => string = (name) => name,
): JsonSchema & { properties: Record<string, JsonSchema>; required: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    const name = rename(field.name);
    properties[name] = describe(typeSchema(field.type, depth), field.description);
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}

export function describe(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}
