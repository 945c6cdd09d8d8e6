// Sofa binds JSON body keys to GraphQL arguments by name. The contract sends a resource's fields at the
// top level, so the body becomes the mutation's `input` argument: keys that are input fields stay, and
// when the input has a `values` field (blueprint values) every other key goes there; the rest are
// ignored, as keys that are not arguments are.
import {
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
} from "graphql";
import { INT_MAX, INT_MIN, INT_RULE } from "../schema/coercion-words.ts";
import type { ErrorDetail } from "../schema/errors.ts";
import type { Route } from "./routes.ts";

/** The schema field a route runs (`Query.entry`, `Mutation.createEntry`). */
function routeField(schema: GraphQLSchema, route: Route): GraphQLField<unknown, unknown> | undefined {
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

/** A route's integer parameters: where each is read (a path segment's index, or the query string). */
type IntParameter = { name: string; pathIndex: number | undefined };
const intParametersByRoute = new WeakMap<Route, IntParameter[]>();

function intParameters(schema: GraphQLSchema, route: Route): IntParameter[] {
  const known = intParametersByRoute.get(route);
  if (known) return known;
  const pathIndex = new Map(route.path.split("/").map((part, index) => [part, index]));
  const found = (routeField(schema, route)?.args ?? [])
    .filter((arg) => getNamedType(arg.type).name === "Int")
    .map((arg) => ({ name: arg.name, pathIndex: pathIndex.get(`:${arg.name}`) }));
  intParametersByRoute.set(route, found);
  return found;
}

/**
 * Sofa coerces query and path parameters without naming the one that failed; integer parameters are
 * checked here first so that `?page=abc` (or `/revisions/abc`) is a 422 on `page` (`revision`), like every
 * other invalid value.
 */
export function invalidQueryParameter(
  schema: GraphQLSchema,
  route: Route,
  url: URL,
): ErrorDetail | undefined {
  const parameters = intParameters(schema, route);
  if (parameters.length === 0) return undefined;
  const segments = url.pathname.slice("/v1".length).split("/");
  for (const { name, pathIndex } of parameters) {
    const value = pathIndex !== undefined ? (segments[pathIndex] ?? null) : url.searchParams.get(name);
    if (value === null) continue;
    const number = /^-?\d{1,10}$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!(number >= INT_MIN && number <= INT_MAX)) return { path: name, message: INT_RULE };
  }
  return undefined;
}
