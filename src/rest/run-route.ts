// Runs a route's schema field in-process: the document REST answers with (rest-shape.ts), its variables
// bound by name from the path, then the query string, then the body's `input`, coerced as sofa-api (which
// first served REST) coerced them: scalars through their type, `true` as the only true Boolean text, an
// empty query value as absent. One route match, one execution, and the answer serialized once (answer.ts).
import {
  type ExecutionResult,
  execute,
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
      name in params ? params[name] : url.searchParams.get(name) || (name === "input" ? input : undefined);
    if (sent === undefined || sent === null) continue;
    variableValues[name] = coerced(sent, typeOf(schema, definition.type));
  }
  return execute({ schema, document, contextValue: ctx, variableValues });
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
