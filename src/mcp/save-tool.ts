// `*_save`: create or update a record by its handle, as an assistant thinks of it ("save the post
// hello_world"). The record is looked up by handle: found, it is updated with the fields given (`new_handle`
// renames it); not found, it is created with them. Each step is the schema's own operation, so its rules
// and errors are REST's.
import type { GraphQLSchema } from "graphql";
import { ApiError, toApiError } from "../schema/errors.ts";
import { inputFields, rootField } from "./field-tool.ts";
import { describe, type JsonSchema, objectSchema } from "./json-schema.ts";
import type { FieldName } from "./operation.ts";
import { inToolNames } from "./renamed-errors.ts";
import { type Shape, shaped } from "./shape.ts";
import { saves, type Tool } from "./tool.ts";

export interface SaveToolSpec {
  name: string;
  description: string;
  /** The lookup by handle (a 404 means: create it). */
  get: FieldName;
  update: FieldName;
  create: FieldName;
  /** The parent's tool argument and the field argument it fills (entries: `collection`). */
  parent?: { name: string; arg: string; description: string };
  /** The create answers a payload `{created, <record>}`: its record's key. */
  payload?: string;
  /** What the record is called in descriptions: "entry". */
  noun: string;
  shape?: Shape;
  omit?: string[];
}

export function saveTool(schema: GraphQLSchema, spec: SaveToolSpec): Tool {
  const createFields = inputFields(rootField(schema, spec.create), spec.omit);
  const updateFields = inputFields(rootField(schema, spec.update), spec.omit);
  const updatable = new Set(updateFields.map((field) => field.name));
  const createOnly = new Set(createFields.map((field) => field.name).filter((name) => !updatable.has(name)));
  const fields = [...createFields, ...updateFields.filter((field) => !createOnly.has(field.name))];
  const unique = [...new Map(fields.map((field) => [field.name, field])).values()];
  const { properties } = objectSchema(unique.filter((field) => field.name !== "handle"));
  const identity: Record<string, JsonSchema> = {
    ...(spec.parent && { [spec.parent.name]: { type: "string", description: spec.parent.description } }),
    handle: describe(
      { type: "string" },
      `The ${spec.noun}'s handle (snake_case): the one to update, or the new ${spec.noun}'s.`,
    ),
    new_handle: describe({ type: "string" }, `Renames an existing ${spec.noun} (snake_case).`),
  };
  // The parent's argument is named as the tool names it in errors (`collection`, not `collection_id`).
  const parentNames: Record<string, string> = spec.parent ? { [spec.parent.arg]: spec.parent.name } : {};
  for (const name of createOnly)
    if (properties[name])
      properties[name] = describe(properties[name], `${properties[name].description ?? ""} (on create only)`);
  return {
    name: spec.name,
    description: spec.description,
    access: "write",
    annotations: saves,
    inputSchema: {
      type: "object",
      properties: { ...identity, ...properties },
      required: [...(spec.parent ? [spec.parent.name] : []), "handle"],
      additionalProperties: false,
    },
    async call(given, { ctx, accountId, run }) {
      const { handle, new_handle: newHandle, ...rest } = given;
      const parent = spec.parent ? { [spec.parent.arg]: rest[spec.parent.name] } : {};
      if (spec.parent) delete rest[spec.parent.name];
      const where = { account_id: accountId, ...parent };
      const exists = await inToolNames({ ...parentNames, id: "handle" }, () =>
        run(ctx, spec.get, { ...where, id: handle }),
      ).then(
        () => true,
        (error) => (statusOf(error) === 404 ? false : Promise.reject(error)),
      );
      if (exists) {
        const refused = Object.keys(rest).filter((name) => createOnly.has(name));
        if (refused.length > 0)
          throw new ApiError(
            422,
            "Validation failed",
            refused.map((path) => ({ path, message: `can only be given when the ${spec.noun} is created` })),
          );
        const input = newHandle === undefined ? rest : { ...rest, handle: newHandle };
        const renamed = { ...parentNames, handle: newHandle === undefined ? "handle" : "new_handle" };
        const updated = await inToolNames(renamed, () =>
          run(ctx, spec.update, { ...where, id: handle, input }),
        );
        return { structured: shaped(updated, spec.shape) };
      }
      if (newHandle !== undefined)
        throw ApiError.invalid("new_handle", `there is no ${spec.noun} '${String(handle)}' to rename`);
      const created = await inToolNames(parentNames, () =>
        run(ctx, spec.create, { ...where, input: { ...rest, handle } }),
      );
      const record = spec.payload ? (created as Record<string, unknown>)[spec.payload] : created;
      return { structured: shaped(record, spec.shape) };
    },
  };
}

function statusOf(error: unknown): number {
  return toApiError(error).status;
}
