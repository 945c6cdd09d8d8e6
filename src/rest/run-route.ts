// Runs a route's schema field in-process: the document REST answers with (rest-shape.ts), its variables
// bound by name from the path or the query string, and `input` from the body alone, coerced as sofa-api
// (which first served REST) coerced them: scalars through their type, `true` as the only true Boolean text,
// an empty query value as absent. A value its type refuses is a 422 on its name. One route match, one execution, and the answer serialized once (answer.ts).
import {
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type TypeNode,
  typeFromAST,
} from "graphql";
import { compiledExecute } from "../schema/compiled-execute.ts";
import { ApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { answerDocument } from "../schema/rest-shape.ts";
import type { RouteMatch } from "./routes.ts";

export async function runRoute(
  schema: GraphQLSchema,
  { route, params }: RouteMatch,
  url: URL,
  input: Record<string, unknown> | undefined,
  ctx: Context,
): Promise<ExecutionResult> {
  const document = answerDocument(schema, route.field);
  const variableValues: Record<string, unknown> = {};
  for (const definition of getOperationAST(document)?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const sent =
      name === "input" ? input : name in params ? params[name] : url.searchParams.get(name) || undefined;
    if (sent === undefined || sent === null) continue;
    try {
      variableValues[name] = coerced(sent, typeOf(schema, definition.type));
    } catch {
      throw new ApiError(422, "Validation failed", [{ path: name, message: "is not a valid value" }]);
    }
  }
  return compiledExecute({ schema, document, contextValue: ctx, variableValues });
}

function typeOf(schema: GraphQLSchema, node: TypeNode): GraphQLInputType {
  return typeFromAST(schema, node as never) as GraphQLInputType;
}

function coerced(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return coerced(value, type.ofType);
  if (isListType(type))
    return (Array.isArray(value) ? value : [value]).map((item) => coerced(item, type.ofType));
  const named = getNamedType(type);
  if (isScalarType(named))
    return named.serialize(named.name === "Boolean" ? value === "true" || value === true : value);
  if (isInputObjectType(named) && typeof value === "string") return JSON.parse(value);
  return value;
}
