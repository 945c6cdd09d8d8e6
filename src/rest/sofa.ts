// Sofa over the routed part of the schema: unrouted root fields would otherwise get default routes.
import { filterSchema } from "@graphql-tools/utils";
import type { GraphQLSchema } from "graphql";
import { useSofa } from "sofa-api";
import type { Context } from "../schema/index.ts";
import { ANSWER_DEPTH } from "../schema/rest-shape.ts";
import { errorResponse } from "./errors.ts";
import { routes } from "./routes.ts";

export function createSofaHandler(schema: GraphQLSchema) {
  const routed = new Set<string>(routes.map((route) => route.field));
  const restSchema = filterSchema({
    schema,
    rootFieldFilter: (operation, name) => routed.has(`${operation}.${name}`),
  });
  const routeConfig: Parameters<typeof useSofa>[0]["routes"] = Object.fromEntries(
    routes.map((route) => [route.field, { method: route.method, path: route.path }]),
  );
  return useSofa({
    basePath: "/v1",
    schema: restSchema,
    routes: routeConfig,
    depthLimit: ANSWER_DEPTH,
    context: (serverContext: { cms?: Context }) => serverContext.cms as Context,
    // fets types its own Response; ours is the standard one it also accepts at run time.
    errorHandler: errorResponse as unknown as NonNullable<Parameters<typeof useSofa>[0]["errorHandler"]>,
    // The document and the docs page are openapi.ts's and docs.ts's, served by the REST handler.
    openAPI: { endpoint: false },
    swaggerUI: { endpoint: false },
  });
}
