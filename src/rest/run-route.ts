// The `execute` sofa calls for a route (sofa.ts): its document, with the path and query arguments sofa
// bound, runs compiled (compiled-execute.ts) with the request's context. Sofa binds the body's keys by name
// too, but the contract sends a resource's fields at the top level, or a multipart upload: the body becomes
// the `input` argument here (arguments.ts). Sofa answers the field's value as JSON at one fixed status; the
// contract's answers (201 or 200 by `created`, 204 with no body, blueprint values spread) are made from the
// value here (answer.ts) and handed back beside sofa's result, so the value is serialized once.
import { type ExecutionArgs, type ExecutionResult, type GraphQLSchema, getOperationAST, Kind } from "graphql";
import { writtenResource } from "../http/validators.ts";
import { accountScope } from "../schema/access.ts";
import { compiledExecute } from "../schema/compiled-execute.ts";
import { ApiError } from "../schema/errors.ts";
import { assertCurrent } from "../schema/validators/index.ts";
import { answer } from "./answer.ts";
import { bodyToInput, inputType } from "./arguments.ts";
import { readBody } from "./body.ts";
import { nonDecimalInteger } from "./refused-argument.ts";
import { type Route, routeOfField } from "./routes.ts";
import type { RestCall } from "./sofa.ts";

export async function runRoute(schema: GraphQLSchema, args: ExecutionArgs): Promise<ExecutionResult> {
  const call = args.contextValue as RestCall;
  const { route, name } = routeOf(args);
  // Who may write comes before what was sent: a read token gets 403 whatever the arguments and the body.
  if (route.method !== "GET") await accountScope(call.ctx, call.account, "write");
  // Optimistic concurrency: a stale If-Match is refused before anything is read or written.
  if (route.method === "PUT" || route.method === "DELETE") {
    await assertCurrent(
      call.ctx,
      call.request.headers.get("if-match"),
      writtenResource(new URL(call.request.url)),
    );
  }
  // fets, sofa's router, gives the matched request its path parameters and its parsed query string.
  const { params = {}, query = {} } = call.forwarded ?? {};
  const nonDecimal = nonDecimalInteger(schema, route, params, query);
  if (nonDecimal) throw new ApiError(422, "Validation failed", [nonDecimal]);
  const variableValues: Record<string, unknown> = { ...args.variableValues };
  delete variableValues.input;
  if (route.method !== "GET" && route.method !== "DELETE") {
    const body = await readBody(call, route);
    const type = inputType(schema, route);
    if (type) variableValues.input = bodyToInput(type, body);
  }
  const result = await compiledExecute({
    schema,
    document: args.document,
    contextValue: call.ctx,
    variableValues,
  });
  if (result.errors) return result;
  call.answer = answer(route, result.data?.[name]);
  return { data: { [name]: null } };
}

const routesOfDocuments = new WeakMap<object, { route: Route; name: string }>();

/** The route of sofa's document for a root field, and the field's name. */
function routeOf({ document }: ExecutionArgs): { route: Route; name: string } {
  let found = routesOfDocuments.get(document);
  if (!found) {
    const operation = getOperationAST(document);
    const field = operation?.selectionSet.selections[0];
    const name = field?.kind === Kind.FIELD ? field.name.value : "";
    const root = operation?.operation === "mutation" ? "Mutation" : "Query";
    const route = routeOfField.get(`${root}.${name}`);
    if (!route) throw new Error(`No route for the root field ${root}.${name}`);
    found = { route, name };
    routesOfDocuments.set(document, found);
  }
  return found;
}
