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
