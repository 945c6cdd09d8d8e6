// One error class for every failure a client may see. It carries the HTTP status (read by yoga and
// sofa from extensions.http.status) and the documented body parts; anything else is masked.
import { GraphQLError } from "graphql";
import { isDatabaseUnreachable } from "../db/connect-errors.ts";
import { DeadlinePassedError } from "../db/deadline.ts";
import { RETRY_AFTER_SECONDS } from "../db/outage.ts";
import { UnstorableTextError } from "../db/text-guard.ts";
import { coercionWords } from "./coercion-words.ts";
import { isReferenceGone, missingRecord } from "./prisma-errors.ts";

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends GraphQLError {
  readonly status: number;
  readonly details: ErrorDetail[];

  constructor(
    status: number,
    message: string,
    details: ErrorDetail[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message, { extensions: { code: codeFor(status), http: { status, headers }, details } });
    this.status = status;
    this.details = details;
  }

  /** Headers the answer carries (Retry-After), read by yoga from extensions.http.headers too. */
  get headers(): Record<string, string> {
    return (this.extensions.http as { headers: Record<string, string> }).headers;
  }

  /**
   * The database cannot be reached: a 503 the client retries after Retry-After. A write whose COMMIT was
   * sent before the connection dropped may have committed: a client sends it again by handle, which is
   * idempotent, or reads before writing again.
   */
  static databaseUnavailable(): ApiError {
    return new ApiError(
      503,
      "Service unavailable",
      [{ path: "", message: `the database cannot be reached: retry in ${RETRY_AFTER_SECONDS} s` }],
      { "retry-after": String(RETRY_AFTER_SECONDS) },
    );
  }

  static invalid(path: string, message: string): ApiError {
    return new ApiError(422, "Validation failed", [{ path, message }]);
  }

  static notFound(what: string): ApiError {
    return new ApiError(404, `${what} not found`);
  }

  /** What toApiError made of an unexpected error: masked, and logged with its stack by each transport. */
  get unexpected(): boolean {
    return this.status === 500;
  }
}

function codeFor(status: number): string {
  const codes: Record<number, string> = {
    400: "BAD_REQUEST",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    409: "CONFLICT",
    412: "PRECONDITION_FAILED",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "UNPROCESSABLE_ENTITY",
    429: "TOO_MANY_REQUESTS",
    503: "SERVICE_UNAVAILABLE",
  };
  return codes[status] ?? (status < 500 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR");
}

/** Collects several field problems and throws them as one 422. */
export class Problems {
  readonly list: ErrorDetail[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ApiError(422, "Validation failed", this.list);
  }
}

/** The error a GraphQL execution wrapped, else itself. */
export function originalOf(error: unknown): unknown {
  return error instanceof GraphQLError ? (error.originalError ?? error) : error;
}

/** A database error toApiError answers as a lost race (a 404 or 409): the transports log it at warn. */
export function isLostRace(error: unknown): boolean {
  const original = originalOf(error);
  return missingRecord(original) !== undefined || isReferenceGone(original);
}

/**
 * Turns an error from executing an operation into the public ApiError: ours pass through, GraphQL's own
 * variable coercion failures (wrong type, missing required field) become 422s on the offending field,
 * and anything else is an internal error whose message stays private.
 */
export function toApiError(error: unknown): ApiError {
  const original = originalOf(error);
  if (original instanceof ApiError) return original;
  if (original instanceof UnstorableTextError) return ApiError.invalid(original.field, original.message);
  // Work cut short by the request's deadline: its answer is the 503 of src/app.ts, and nothing went wrong.
  if (original instanceof DeadlinePassedError) return new ApiError(503, "Request timed out");
  if (isDatabaseUnreachable(original)) return ApiError.databaseUnavailable();
  // A write checks what it names before its own statements; another request's delete may come between
  // (transports log these at warn: a wrong ID in the code would show the same way). The record it changes
  // gone: as if it had been gone before (404). One it refers to gone: a conflict, and the same request sent
  // again is answered as any naming a record that does not exist.
  const missing = missingRecord(original);
  if (missing)
    return ApiError.notFound(
      missing.replace(/(?<=[a-z])(?=[A-Z])/g, " ").replace(/ ./g, (s) => s.toLowerCase()),
    );
  if (isReferenceGone(original))
    return new ApiError(409, "Conflict", [
      { path: "", message: "names a record that was deleted at the same time: send it again" },
    ]);
  if (error instanceof GraphQLError && !error.path) {
    const detail = coercionDetail(error.message);
    if (detail) return new ApiError(422, "Validation failed", [detail]);
    return new ApiError(400, error.message);
  }
  return new ApiError(500, "Internal server error");
}

/**
 * graphql-js words coercion failures as
 *   Variable "$input" got invalid value 5 at "input.name"; String cannot represent …
 *   Variable "$input" got invalid value {…}; Field "name" of required type "String!" was not provided.
 *   Variable "$page" got invalid value "x"; Int cannot represent …
 * The detail names the field and says what it must be in the project's words (coercion-words.ts).
 */
export function coercionDetail(message: string): ErrorDetail | undefined {
  const variable = /^Variable "\$(\w+)" got invalid value .*?(?: at "([^"]+)")?; (.*)$/s.exec(message);
  if (!variable) {
    const missing = /^Variable "\$(\w+)" of required type "[^"]+" was not provided\.$/.exec(message);
    if (missing?.[1]) return { path: missing[1], message: "is required" };
    const nulled = /^Variable "\$(\w+)" of non-null type "[^"]+" must not be null\.$/.exec(message);
    return nulled?.[1] ? { path: nulled[1], message: "must not be null" } : undefined;
  }
  const [, name = "", at, reason = ""] = variable;
  // REST bodies are the `input` variable, whose fields are the body's keys; other variables keep their name.
  let path = at ? (name === "input" ? at.replace(/^input\.?/, "") : at) : name === "input" ? "" : name;
  const field = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(reason);
  if (field?.[1]) return { path: path ? `${path}.${field[1]}` : field[1], message: "is required" };
  const unknown = /^Field "(\w+)" is not defined by type/.exec(reason);
  if (unknown?.[1]) path = path ? `${path}.${unknown[1]}` : unknown[1];
  return { path: path || name, message: coercionWords(reason) };
}
