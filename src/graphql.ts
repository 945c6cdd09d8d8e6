// GraphQL at /graphql (GraphiQL for browsers). Every operation needs a token; the schema checks which
// account it may see.
import type { GraphQLSchema } from "graphql";
import { createYoga } from "graphql-yoga";
import type { Context } from "./schema/index.ts";

export function createGraphQLHandler(schema: GraphQLSchema) {
  const yoga = createYoga<{ cms: Context }>({
    schema,
    graphqlEndpoint: "/graphql",
    context: ({ cms }) => cms,
    graphiql: { title: "Content Management Service" },
    landingPage: false,
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
