// Validation is declared on inputs (zod, through Pothos' validation plugin); its failures become the
// documented 422 body with one detail per problem, the path naming the field as the client sent it.
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { ApiError } from "./errors.ts";
// Loaded with the validation it words.
import "./zod-words.ts";

export function validationFailure(failure: StandardSchemaV1.FailureResult): ApiError {
  const details = failure.issues.map((issue) => ({
    path: issuePath(issue.path ?? []),
    message: issue.message,
  }));
  return new ApiError(422, "Validation failed", details);
}

type Segment = PropertyKey | StandardSchemaV1.PathSegment;

/** ["input", "fields", 0, "handle"] -> "fields[0].handle": the input wrapper is a GraphQL detail. */
export function issuePath(path: readonly Segment[]): string {
  const keys = path.map((segment) => (typeof segment === "object" ? segment.key : segment));
  if (keys[0] === "input") keys.shift();
  return keys
    .map((key, index) =>
      typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join("");
}
