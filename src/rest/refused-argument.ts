// Sofa's binding answers a path or query value its type cannot take (`?page=abc`, `/revisions/abc`) with a
// 400 that names no parameter; the contract answers a 422 on the parameter's name (content-api.md, "Errors").
import {
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { coercionWords, INT_RULE } from "../schema/coercion-words.ts";
import type { ErrorDetail } from "../schema/errors.ts";
import { routeField } from "./arguments.ts";
import { type Route, routes } from "./routes.ts";

/** The type of each argument a route reads by name: one type per name across the route table. */
const argumentTypes = new WeakMap<GraphQLSchema, Map<string, GraphQLInputType>>();

function argumentType(schema: GraphQLSchema, name: string): GraphQLInputType | undefined {
  let types = argumentTypes.get(schema);
  if (!types) {
    types = new Map();
    for (const route of routes)
      for (const arg of routeField(schema, route)?.args ?? []) types.set(arg.name, arg.type);
    argumentTypes.set(schema, types);
  }
  return types.get(name);
}

/**
 * The path or query value sofa refused, named. Sofa binds an argument from the path, else from the query
 * string (a list or an object from `a[]=` and `a[b]=`), each value through its type's serialize.
 */
export function refusedArgument(
  schema: GraphQLSchema,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): ErrorDetail {
  const queried = Object.entries(query).filter(([name]) => !(name in params));
  for (const [name, value] of [...Object.entries(params), ...queried]) {
    const type = argumentType(schema, name);
    const reason = type && value !== "" && value !== undefined ? refusal(type, value) : undefined;
    if (reason) return { path: name, message: coercionWords(reason) };
  }
  return { path: "query", message: "is not a valid value" };
}

/** Why sofa's binding refuses a value of this type, if it does. */
function refusal(type: GraphQLInputType, value: unknown): string | undefined {
  if (isNonNullType(type)) return refusal(type.ofType, value);
  if (isListType(type)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const reason = refusal(type.ofType, item);
      if (reason) return reason;
    }
    return undefined;
  }
  try {
    if (isScalarType(type) && type.name !== "Boolean") type.serialize(value);
    else if (isInputObjectType(type) && typeof value === "string") JSON.parse(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * An integer argument sent as other than decimal digits, named. Sofa's binding reads an Int through its
 * serialize, which takes any text Number() reads as a whole number (`1e3`, `0x10`, `1.0`); the contract takes
 * a whole number written in digits, and answers anything else with a 422 on the parameter.
 */
export function nonDecimalInteger(
  schema: GraphQLSchema,
  route: Route,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): ErrorDetail | undefined {
  let names = integerArguments.get(route);
  if (!names) {
    const args = routeField(schema, route)?.args ?? [];
    names = args.filter((arg) => getNamedType(arg.type).name === "Int").map((arg) => arg.name);
    integerArguments.set(route, names);
  }
  for (const name of names) {
    const sent = name in params ? params[name] : query[name];
    if (typeof sent === "string" && sent !== "" && !/^\s*-?\d+\s*$/.test(sent))
      return { path: name, message: INT_RULE };
  }
  return undefined;
}

const integerArguments = new WeakMap<Route, string[]>();
