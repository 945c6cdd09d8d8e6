// What stopped the first connection to PostgreSQL, in words an operator can act on. The driver adapter
// reports the cause as a `kind` with its details (@prisma/adapter-pg's convertDriverError).
import { oneLine } from "../setup-errors.ts";

interface DriverCause {
  kind?: string;
  port?: number;
  db?: string;
  user?: string;
  reason?: string;
  originalMessage?: string;
}

export function postgresProblem(error: unknown, url: string): string {
  const { hostname, port, pathname } = new URL(url);
  const server = `PostgreSQL at ${hostname || "localhost"}:${port || 5432}`;
  const cause = (error as { meta?: { driverAdapterError?: { cause?: DriverCause } } }).meta
    ?.driverAdapterError?.cause;
  const database = cause?.db ?? decodeURIComponent(pathname.slice(1));
  switch (cause?.kind) {
    case "DatabaseNotReachable":
      // The adapter keeps the port of a refused connection; a host name that does not resolve has none.
      return `cannot reach ${server}: ${cause.port === undefined ? "host not found" : "connection refused"}`;
    case "DatabaseDoesNotExist":
      return `${server} has no database "${database}" (create it first, e.g. createdb ${database})`;
    case "AuthenticationFailed":
      return `${server} refused the password of user "${cause.user ?? ""}"`;
    case "DatabaseAccessDenied":
      return `${server} denies access to database "${database}"`;
    case "TlsConnectionError":
      return `cannot open a TLS connection to ${server}: ${cause.reason ?? "unknown reason"}`;
    case "SocketTimeout":
      return `${server} did not answer in time`;
    default:
      return `cannot use ${server}: ${cause?.originalMessage ?? cause?.kind ?? oneLine(error)}`;
  }
}

// Prisma's codes for a database out of reach: not reached (P1001), timed out connecting (P1002) or
// answering (P1008), the connection closed (P1017), no connection free in time (P2024), too many (P2037).
const unreachableCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
const unreachableKinds = new Set(["DatabaseNotReachable", "ConnectionClosed", "TooManyConnections"]);
/**
 * PostgreSQL's SQLSTATEs: class 08 (connection exception), 57P01-57P03 (the server is shutting down, has
 * crashed or is starting), 53300 (too many connections).
 */
const unreachableState = /^(08...|57P0[123]|53300)$/;
/**
 * SQLite's: the file cannot be opened (its directory gone or unreadable), the disk failed or is full, or
 * the file was removed or moved from under the server (SQLITE_READONLY_DBMOVED).
 */
const unreachableSqlite = /^SQLITE_(CANTOPEN|IOERR|FULL|READONLY_DBMOVED|READONLY_DIRECTORY)/;
/**
 * Errors without a code: pg's of a connection that died, better-sqlite3's of a file whose directory is
 * gone (it checks before SQLite would answer SQLITE_CANTOPEN).
 */
const droppedConnection =
  /Connection terminated|Can't reach database server|Server has closed the connection|Client has encountered a connection error|connection is closed|Cannot open database because the directory does not exist|unable to open database file/i;

interface ErrorParts {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/**
 * Whether `error` says the database cannot be reached (rather than that a statement was wrong): the
 * server answers such errors 503 with Retry-After (schema/errors.ts), and logs them once per outage
 * (db/outage.ts). Prisma wraps the driver's error, which wraps the database's: each layer is looked at.
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 4) return false;
  const { code, kind, originalCode, message, cause, meta } = error as ErrorParts;
  if (typeof code === "string" && (unreachableCodes.has(code) || unreachableSqlite.test(code))) return true;
  if (typeof kind === "string" && unreachableKinds.has(kind)) return true;
  // SQLITE_BUSY is reported as a socket timeout: a busy file, not one out of reach.
  if (kind === "SocketTimeout" && !String(originalCode ?? "").startsWith("SQLITE_")) return true;
  const state = typeof originalCode === "string" ? originalCode : kind === "postgres" ? code : undefined;
  if (typeof state === "string" && (unreachableState.test(state) || unreachableSqlite.test(state)))
    return true;
  if (typeof message === "string" && droppedConnection.test(message)) return true;
  return (
    isDatabaseUnreachable(meta?.driverAdapterError, depth + 1) || isDatabaseUnreachable(cause, depth + 1)
  );
}
