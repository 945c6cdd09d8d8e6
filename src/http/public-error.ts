// What every transport shows of an error: the ApiError it is (schema/errors.ts), an unexpected one masked
// as a 500 and logged with its stack, so that no 500 goes unexplained in the log.
import { type Log, log as serverLog } from "../log.ts";
import { type ApiError, toApiError } from "../schema/errors.ts";

/** `fields` describe where it happened (the tool, the method); `log` is the transport's own logger. */
export function publicError(
  error: unknown,
  fields: Record<string, unknown> = {},
  log: Log = serverLog,
): ApiError {
  const apiError = toApiError(error);
  if (apiError.unexpected)
    log({
      level: "error",
      msg: "unexpected error",
      ...fields,
      error: String((error as Error)?.stack ?? error),
    });
  return apiError;
}
