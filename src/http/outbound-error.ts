// The one failure of a server-side fetch (outbound.ts). Its message is written for the API's caller and
// names nothing internal beyond the URL's own host, so a transport can pass it on as the detail of a 422.
export type OutboundReason =
  /** Not a URL, or not an http(s) one. */
  | "url"
  /** The host is, or resolves to, an address the server must not reach. */
  | "refused"
  /** The host did not resolve, or the connection or TLS handshake failed. */
  | "unreachable"
  | "timeout"
  | "too-large"
  /** The server answered something other than 2xx or a usable redirect. */
  | "status"
  | "redirects";

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundReason,
    message: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

/** The public words for a connection that failed below HTTP (DNS, TCP, TLS). */
export function connectionFailure(error: unknown, host: string): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NODATA") {
    return new OutboundError("unreachable", `could not resolve the host ${host}`);
  }
  if (code === "ECONNREFUSED")
    return new OutboundError("unreachable", `the connection to ${host} was refused`);
  return new OutboundError(
    "unreachable",
    typeof code === "string"
      ? `the connection to ${host} failed (${code})`
      : `the connection to ${host} failed`,
  );
}
