// What every transport shows of an error: the ApiError it is (schema/errors.ts), an unexpected one masked
// as a 500 and logged with its stack, so that no 500 goes unexplained in the log; a write that lost a race
// to another request's delete is logged at warn, so that a wrong ID in the code would not go unseen. A
// database out of reach is a 503, logged once per outage (db/outage.ts), not once per request.
import { isDatabaseUnreachable } from "../db/connect-errors.ts";
import { databaseRefused } from "../db/outage.ts";
import { type Log, log as serverLog } from "../log.ts";
import { type ApiError, isLostRace, originalOf, toApiError } from "../schema/errors.ts";

/** `fields` describe where it happened (the tool, the method); `log` is the transport's own logger. */
export function publicError(
  error: unknown,
  fields: Record<string, unknown> = {},
  log: Log = serverLog,
): ApiError {
  const apiError = toApiError(error);
  const stack = () => String((error as Error)?.stack ?? error);
  if (isDatabaseUnreachable(originalOf(error))) databaseRefused(originalOf(error), log);
  else if (apiError.unexpected) log({ level: "error", msg: "unexpected error", ...fields, error: stack() });
  else if (isLostRace(error)) log({ level: "warn", msg: "write lost a race", ...fields, error: stack() });
  return apiError;
}
