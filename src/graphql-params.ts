// How /graphql reads a request's parameters besides a JSON body. A GET's query string and a urlencoded
// form are read as yoga reads them (request-parser/utils.js), but `variables` or `extensions` that are not
// JSON are the client's 400 naming the parameter: yoga's reader JSON.parses them unguarded, and its
// SyntaxError was masked as a 500. Its checks that follow (an object or nothing) still apply. A POST of a
// type no parser takes is a 415 naming the types taken, as a GraphQL error (yoga answers it with no body):
// multipart is one, since GraphQL uploads are off (files are uploaded over REST).
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { ApiError } from "./schema/errors.ts";

/**
 * Put after yoga's own parsers (as every plugin of createYoga's `plugins` is): it replaces two of them, and
 * sees whether one took the request.
 */
export const paramsPlugin: Plugin = {
  onRequestParse({ request, requestParser, setRequestParser }) {
    if (request.method === "GET") setRequestParser(readQueryString);
    else if (request.method !== "POST") return;
    else if (hasType(request, "application/x-www-form-urlencoded")) setRequestParser(readForm);
    else if (!requestParser) setRequestParser(refuseType);
  },
};

const refuseType = () => {
  throw new ApiError(415, "Unsupported Media Type: POST a JSON body (application/json)", [
    {
      path: "content-type",
      message:
        "must be application/json, application/graphql+json, application/graphql or application/x-www-form-urlencoded",
    },
  ]);
};

const readQueryString = (request: Request) => readParams(new URL(request.url).searchParams);

const readForm = async (request: Request) => readParams(new URLSearchParams(await request.text()));

function readParams(params: URLSearchParams): GraphQLParams {
  return {
    operationName: params.get("operationName") || undefined,
    query: params.get("query") || undefined,
    variables: readJson(params, "variables"),
    extensions: readJson(params, "extensions"),
  };
}

function readJson(params: URLSearchParams, name: string) {
  const text = params.get(name);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, `"${name}" param is not valid JSON.`, [
      { path: name, message: "is not valid JSON" },
    ]);
  }
}

/**
 * As yoga matches a type: the first of a list (HTTP allows one; some clients send several),
 * parameters aside.
 */
function hasType(request: Request, type: string): boolean {
  const first = request.headers.get("content-type")?.split(",")[0];
  return first === type || !!first?.startsWith(`${type};`);
}
