// sofa-api serves the route table: its router is the one match of a REST path (one method and path per
// root field, from routes.ts), and it binds each operation's path and query arguments by name and builds
// its document (every field, related records ANSWER_DEPTH deep). The route's operation then runs through
// `execute` (run-route.ts), which reads the body and shapes the answer into the contract's.
import { filterSchema } from "@graphql-tools/utils";
import type { GraphQLSchema } from "graphql";
import { useSofa } from "sofa-api";
import type { Response } from "../http/fetch-api.ts";
import type { Context } from "../schema/index.ts";
import { ANSWER_DEPTH } from "../schema/rest-shape.ts";
import { errorResponse } from "./errors.ts";
import { routes } from "./routes.ts";
import { runRoute } from "./run-route.ts";

type SofaConfig = Parameters<typeof useSofa>[0];

/** One REST request as sofa hands it back: what the route's operation reads, and what it answered. */
export interface RestCall {
  ctx: Context;
  /** The request as the client sent it: its body is read once the route is known (run-route.ts). */
  request: Request;
  /** The path's `:account_id`, whose token was checked for reading. */
  account: string;
  /** The request sofa's router matched (forwarded-request.ts), with its path parameters and query. */
  forwarded?: Request & Partial<Record<"params" | "query", Record<string, unknown>>>;
  jsonBodyLimit: number;
  /** Sofa bound the arguments and reached the route's operation. */
  bound: boolean;
  /** The contract's answer, made from the field's value (answer.ts). */
  answer?: Response;
}

/** Answers sofa made of errors it met before the operation ran (an argument its type refuses). */
export const sofaRefusals = new WeakSet<object>();

export function createRestRouter(schema: GraphQLSchema) {
  const routed = new Set<string>(routes.map((route) => route.field));
  // Sofa gives every root field a route: those outside the table get none.
  const restSchema = filterSchema({
    schema,
    rootFieldFilter: (operation, name) => routed.has(`${operation}.${name}`),
  });
  return useSofa({
    basePath: "/v1",
    schema: restSchema,
    routes: Object.fromEntries(
      routes.map((route) => [route.field, { method: route.method, path: route.path }]),
    ),
    depthLimit: ANSWER_DEPTH,
    context: ({ rest }: { rest?: RestCall }) => {
      (rest as RestCall).bound = true;
      return rest as RestCall;
    },
    execute: ((args) => runRoute(schema, args)) as SofaConfig["execute"],
    // fets types its own Response; ours is a standard one, which it passes on as it is.
    errorHandler: ((errors) => {
      const response = errorResponse(errors);
      sofaRefusals.add(response);
      return response;
    }) as NonNullable<SofaConfig["errorHandler"]>,
    // The document and the docs page are openapi.ts's and docs.ts's, served by the REST handler.
    openAPI: { endpoint: false },
    swaggerUI: { endpoint: false },
  });
}
