// GraphQL at /graphql (GraphiQL for browsers). Every operation needs a token; the schema checks which
// account it may see.
import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, maskError } from "graphql-yoga";
import { limitPlugins } from "./graphql-limits.ts";
import { toApiError } from "./schema/errors.ts";
import type { Context } from "./schema/index.ts";

export function createGraphQLHandler(schema: GraphQLSchema) {
  const yoga = createYoga<{ cms: Context }>({
    schema,
    graphqlEndpoint: "/graphql",
    context: ({ cms }) => cms,
    graphiql: { title: "Content Management Service" },
    landingPage: false,
    plugins: limitPlugins(),
    // Client errors raised below the schema (text the database cannot store) are shown; the rest masked.
    maskedErrors: {
      maskError(error, message, isDev) {
        const apiError = toApiError(error);
        if (
          apiError.status >= 500 ||
          !(error instanceof GraphQLError) ||
          error.originalError instanceof GraphQLError
        ) {
          return maskError(error, message, isDev);
        }
        return new GraphQLError(apiError.message, {
          nodes: error.nodes,
          path: error.path,
          extensions: apiError.extensions,
        });
      },
    },
    logging: false,
  });

  return async function handleGraphQL(request: Request, ctx: Context): Promise<Response> {
    const wantsGraphiQL =
      request.method === "GET" && (request.headers.get("accept") ?? "").includes("text/html");
    if (!wantsGraphiQL && !(await ctx.viewer())) {
      return Response.json(
        { errors: [{ message: "Missing or invalid bearer token", extensions: { code: "UNAUTHENTICATED" } }] },
        { status: 401, headers: { "www-authenticate": "Bearer" } },
      );
    }
    return yoga.fetch(request, { cms: ctx });
  };
}
