// Sofa binds JSON body keys to GraphQL arguments by name. The contract sends a resource's fields at the
// top level, so the body becomes the mutation's `input` argument (run-route.ts): keys that are input
// fields stay, and when the input has a `values` field (blueprint values) every other key goes there; the rest are
// ignored, as keys that are not arguments are.
import {
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
} from "graphql";
import type { Route } from "./routes.ts";

/** The schema field a route runs (`Query.entry`, `Mutation.createEntry`). */
export function routeField(schema: GraphQLSchema, route: Route): GraphQLField<unknown, unknown> | undefined {
  const [kind, name = ""] = route.field.split(".");
  const root = kind === "Mutation" ? schema.getMutationType() : schema.getQueryType();
  return root?.getFields()[name];
}

export function inputType(schema: GraphQLSchema, route: Route): GraphQLInputObjectType | undefined {
  const arg = routeField(schema, route)?.args.find((candidate) => candidate.name === "input");
  const type = arg && getNamedType(arg.type);
  return type && isInputObjectType(type) ? type : undefined;
}

export function bodyToInput(
  type: GraphQLInputObjectType,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const fields = type.getFields();
  const collectsValues = "values" in fields;
  // Null-prototype objects: a `__proto__` key in the body stays an ordinary (and later dropped) key.
  const input: Record<string, unknown> = Object.create(null);
  const values: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body)) {
    if (key !== "values" && Object.hasOwn(fields, key)) input[key] = value;
    else if (collectsValues) values[key] = value;
  }
  if (collectsValues && Object.keys(values).length > 0) input.values = values;
  return input;
}
