// Reading a JSON request body within a size limit, refusing what JSON.parse accepts but the API cannot
// take; REST (src/rest/body.ts) and the tool interface read their bodies with it.
import { ApiError } from "../schema/errors.ts";
import { MAX_JSON_DEPTH } from "../schema/json-depth.ts";
import { readLimitedText } from "./limited-body.ts";

/** Any JSON value within the limit, refused (4xx) when it is not JSON or holds what the API cannot take. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readLimitedText(request, limit);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "is not valid JSON" }]);
  }
  const problem = typeof body === "object" && body !== null ? shapeProblem(body) : undefined;
  if (problem) throw problem;
  return body;
}

// With the `u` flag a surrogate pair is one code point: only unpaired surrogates match \p{Cs}.
const unpairedSurrogate = /\p{Cs}/u;

/**
 * What JSON.parse accepts but the API cannot take, walked without recursion: nesting deeper than
 * MAX_JSON_DEPTH (400 on body), and a key or string with an unpaired UTF-16 surrogate (a `"\ud800"`
 * escape: valid JSON, but no Unicode text; 422 on its path).
 */
function shapeProblem(body: object): ApiError | undefined {
  const pending: [unknown, number, string][] = [[body, 1, ""]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth, path] = next;
    if (typeof value === "string" && unpairedSurrogate.test(value)) return surrogateError(path);
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      return new ApiError(400, "Malformed JSON", [
        { path: "body", message: `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep` },
      ]);
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (unpairedSurrogate.test(key)) return surrogateError(childPath);
      pending.push([child, depth + 1, childPath]);
    }
  }
  return undefined;
}

function surrogateError(path: string): ApiError {
  return ApiError.invalid(path || "body", "must be Unicode text: no unpaired surrogates (\\ud800-\\udfff)");
}
