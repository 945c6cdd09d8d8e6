// A tool that is one root field of the schema: its arguments are the field's (account_id aside: the
// token's account is the account), some renamed for an assistant, with the `input` object's fields at the
// top level as REST bodies have them.
import type { GraphQLField, GraphQLSchema } from "graphql";
import { getNamedType, isInputObjectType } from "graphql";
import { describe, type JsonSchema, objectSchema } from "./json-schema.ts";
import type { FieldName } from "./operation.ts";
import { inToolNames } from "./renamed-errors.ts";
import { type Shape, shaped } from "./shape.ts";
import { type Access, readOnly, type Tool } from "./tool.ts";

export interface FieldToolSpec {
  name: string;
  description: string;
  field: FieldName;
  annotations?: Tool["annotations"];
  /** Tool argument -> the field's argument, e.g. `{ collection: "collection_id", handle: "id" }`. */
  names?: Record<string, string>;
  /** Descriptions of tool arguments, where the field's own would mislead (a renamed `id`). */
  described?: Record<string, string>;
  /** Input fields only another transport sets (REST's staged upload). */
  omit?: string[];
  /** Arguments this tool needs though the operation does not (assets_upload's `data`, its only way). */
  require?: string[];
  shape?: Shape;
  /** Who may call it, where the field's kind would say too little (webhooks are read with a write token). */
  access?: Access;
}

export function rootField(schema: GraphQLSchema, name: FieldName): GraphQLField<unknown, unknown> {
  const [kind, fieldName = ""] = name.split(".");
  const root = kind === "Mutation" ? schema.getMutationType() : schema.getQueryType();
  const field = root?.getFields()[fieldName];
  if (!field) throw new Error(`the schema has no ${name}`);
  return field;
}

/** The input object's fields of a field's `input` argument ([] without one). */
export function inputFields(field: GraphQLField<unknown, unknown>, omit: string[] = []) {
  const input = field.args.find((arg) => arg.name === "input");
  const type = input && getNamedType(input.type);
  if (!type || !isInputObjectType(type)) return [];
  return Object.values(type.getFields()).filter((inputField) => !omit.includes(inputField.name));
}

export function fieldTool(schema: GraphQLSchema, spec: FieldToolSpec): Tool {
  const field = rootField(schema, spec.field);
  const toolName = Object.fromEntries(Object.entries(spec.names ?? {}).map(([tool, arg]) => [arg, tool]));
  const args = field.args.filter((arg) => arg.name !== "account_id" && arg.name !== "input");
  const fields = inputFields(field, spec.omit);
  const own = objectSchema(args, 0, (name) => toolName[name] ?? name);
  const input = objectSchema(fields);
  const properties: Record<string, JsonSchema> = { ...own.properties, ...input.properties };
  for (const [name, text] of Object.entries(spec.described ?? {}))
    if (properties[name]) properties[name] = describe(properties[name], text);
  const access: Access = spec.access ?? (spec.field.startsWith("Mutation.") ? "write" : "read");
  const inputNames = new Set(fields.map((inputField) => inputField.name));
  return {
    name: spec.name,
    description: spec.description,
    access,
    // A write says nothing more than that unless told: MCP then assumes the worst (destructive, not idempotent).
    annotations:
      spec.annotations ?? (access === "read" ? readOnly : { readOnlyHint: false, openWorldHint: false }),
    inputSchema: {
      type: "object",
      properties,
      required: [...own.required, ...input.required, ...(spec.require ?? [])],
      additionalProperties: false,
    },
    async call(given, { ctx, accountId, run }) {
      const variables: Record<string, unknown> = { account_id: accountId };
      const values: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(given)) {
        if (inputNames.has(key)) values[key] = value;
        else variables[spec.names?.[key] ?? key] = value;
      }
      if (fields.length > 0) variables.input = values;
      const value = await inToolNames(toolName, () => run(ctx, spec.field, variables));
      return { structured: shaped(value, spec.shape) };
    },
  };
}
