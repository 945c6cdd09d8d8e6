// Reading a JSON request body within the size limit (decisions.md: 2 MB; 413 past it, 400 when it is
// not JSON, not an object or nested too deep, 422 on a string that is no Unicode text).
import { randomUUID } from "node:crypto";
import { readLimitedText } from "../http/limited-body.ts";
import { ApiError } from "../schema/errors.ts";
import { MAX_JSON_DEPTH } from "../schema/json-depth.ts";

export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const text = await readLimitedText(request, limit);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "is not valid JSON" }]);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  const problem = shapeProblem(body);
  if (problem) throw problem;
  return body as Record<string, unknown>;
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

/**
 * The body as JSON text for the schema, as sent: JSON.stringify would write a number past the double
 * range (`1e999`, parsed as Infinity) as null, turning a bad value into "clear this value"; here it is
 * written back as `1e999` so that the schema sees, and refuses, what the client sent.
 */
export function forwardedJson(value: unknown): string {
  const marker = `\u0000${randomUUID()}`;
  const text = JSON.stringify(value, (_key, item) =>
    item === Infinity ? `${marker}+` : item === -Infinity ? `${marker}-` : item,
  );
  return text
    .replaceAll(JSON.stringify(`${marker}+`), "1e999")
    .replaceAll(JSON.stringify(`${marker}-`), "-1e999");
}
