// GraphQL at /graphql (GraphiQL for browsers). Every operation needs a token; the schema checks which
// account it may see.
import { type ExecutionResult, GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, type GraphiQLOptions, maskError, type Plugin } from "graphql-yoga";
import { limitPlugins } from "./graphql-limits.ts";
import { paramsPlugin } from "./graphql-params.ts";
import { fieldErrorStatus, preferGraphQLResponse } from "./graphql-status.ts";
import { Request, Response } from "./http/fetch-api.ts";
import { readLimitedText } from "./http/limited-body.ts";
import { publicError } from "./http/public-error.ts";
import { cachedExecute } from "./schema/cached-execute.ts";
import { ApiError } from "./schema/errors.ts";
import type { Context } from "./schema/index.ts";

/**
 * Queries answer from the read cache when they can (src/schema/cached-execute.ts), and run compiled
 * (src/schema/compiled-execute.ts) instead of on yoga's executor: no operation here streams (@defer).
 */
const cachedExecution: Plugin = {
  onExecute: ({ setExecuteFn }) =>
    setExecuteFn(async (args) => requestErrorStatus(await cachedExecute(args))),
};

/**
 * A result without data is an operation that never ran (its variables were refused): a 400 for clients
 * that accept `application/graphql-response+json`, a 200 in `application/json`, as yoga answers an invalid
 * document (src/graphql-status.ts).
 */
function requestErrorStatus(result: ExecutionResult): ExecutionResult {
  if ("data" in result || !result.errors) return result;
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, {
        nodes: error.nodes,
        originalError: error.originalError,
        extensions: { ...error.extensions, http: { status: 400, spec: true } },
      }),
  );
  return { errors };
}

/** GraphiQL's starting point: how to send a token, and a first query to run with it. */
const graphiql: GraphiQLOptions = {
  title: "Content Management Service",
  defaultQuery: `# Every operation needs an API token, sent in the
# Authorization header: set yours in Headers, below.
# A read-only token for an account:
#   npm run --silent cms -- token create \\
#     --account acct_… --scope read --json
# Put the account ID in Variables; run with Ctrl-Enter.
query Collections($account: ID!) {
  collections(account_id: $account) {
    data { handle name routing }
  }
}
`,
  headers: JSON.stringify({ Authorization: "Bearer <your API token>" }, null, 2),
  defaultEditorToolsVisibility: "headers",
};

/**
 * GraphiQL's page, from the installed @graphql-yoga/render-graphiql: every script and style inline, so
 * it works with no internet. The package (9 MB) is loaded on the first visit, not at start-up; a load
 * that failed (its chunk of dist/ being rewritten) is tried again on the next visit.
 */
let graphiqlPage: Promise<string> | undefined;
const renderGraphiQL = (options: GraphiQLOptions) => {
  graphiqlPage ??= import("@graphql-yoga/render-graphiql")
    .then((module) => module.renderGraphiQL(options))
    .catch((error: unknown) => {
      graphiqlPage = undefined;
      throw error;
    });
  return graphiqlPage;
};

export const GRAPHQL_PATH = "/graphql";

/** `bodyLimit`: the largest POST body, in bytes (the REST JSON limit: 413 past it, as on /v1). */
export function createGraphQLHandler(schema: GraphQLSchema, bodyLimit: number) {
  const yoga = createYoga<{ cms: Context }>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context: ({ cms }) => cms,
    graphiql,
    renderGraphiQL,
    landingPage: false,
    // The body is read and limited before yoga sees it (readLimitedText below): yoga's own limit piped it
    // through a TransformStream again, an AbortController and a DOMException per request (7 % of a kept
    // answer's CPU).
    maxRequestBodySize: false,
    // No GraphQL uploads (the multipart request spec): files are uploaded over REST, which checks them. A
    // multipart body is refused as any other type no parser takes (src/graphql-params.ts).
    multipart: false,
    plugins: [paramsPlugin, ...limitPlugins(), cachedExecution, fieldErrorStatus],
    // Client errors raised below the schema (text the database cannot store) are shown; the rest masked,
    // and those of the server logged with their stack, as REST logs them (src/rest/errors.ts).
    maskedErrors: {
      maskError(error, message, isDev) {
        const apiError = publicError(error);
        if (
          apiError.unexpected ||
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
    preferGraphQLResponse(request.headers);
    if (request.method !== "POST") return yoga.fetch(request, { cms: ctx });
    let body: string;
    try {
      body = await readLimitedText(request, bodyLimit);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return Response.json(
        { errors: [{ message: error.message, extensions: error.extensions }] },
        { status: error.status },
      );
    }
    // The adapter's own headers, not a copy in Node's Headers: copying went through undici's WebIDL
    // conversions, and yoga's reads of the copy cost more too (with the whole read, 5 % of an uncached list).
    const { method, headers, signal } = request;
    return yoga.fetch(new Request(request.url, { method, headers, body, signal }), { cms: ctx });
  };
}
