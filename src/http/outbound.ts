// Server-side requests to a URL a caller gave (assets from a URL, webhooks, URL imports) without
// letting the caller reach the server's own network (SSRF). Only http(s); every address the host resolves
// to must be public (public-address.ts), checked inside the connection's own DNS lookup so the address
// checked is the address connected to (no DNS-rebinding gap); IP literals, which Node connects to without
// a lookup, are checked before connecting. Redirects are followed by hand and each hop is checked again.
// The body is cut at `maxBytes` and everything (all hops, DNS included) at `timeoutMs`.
import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { connectionFailure, OutboundError } from "./outbound-error.ts";
import { nonPublicReason } from "./public-address.ts";

export { OutboundError, type OutboundReason } from "./outbound-error.ts";

export interface FetchPublicOptions {
  /** OUTBOUND_ALLOW_PRIVATE: skip the address check (a server meant to fetch from its own network). */
  allowPrivate: boolean;
  maxBytes: number;
  /** For the whole fetch: every hop, DNS lookups, connections and the body. */
  timeoutMs: number;
  maxRedirects?: number;
  /**
   * Origins (`http://host:port`) exempt from the address check while the check stays on for every other
   * hop. An allow-list of named internal services is what webhooks to an intranet receiver need; it is
   * also the only honest way to test the redirect re-check without a public host: a trusted local first
   * hop that redirects to a loopback address must still be refused. Never filled from caller input.
   */
  trustedOrigins?: readonly string[];
}

export interface Fetched {
  bytes: Buffer;
  contentType: string | null;
  /** The URL the bytes came from, after redirects. */
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const headers = { accept: "*/*", "accept-encoding": "identity", "user-agent": "content-management-service" };

export async function fetchPublic(url: string, options: FetchPublicOptions): Promise<Fetched> {
  const { timeoutMs, maxRedirects = 5 } = options;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError("timeout", `timed out after ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    let target = outboundUrl(url);
    for (let redirects = 0; ; redirects++) {
      const response = await get(target, options, deadline.signal, redirects > 0);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        const bytes = await readBody(response, target.host, options.maxBytes, deadline.signal);
        return { bytes, contentType: response.headers["content-type"] ?? null, finalUrl: target.href };
      }
      response.destroy();
      const location = REDIRECTS.has(status) ? response.headers.location : undefined;
      if (!location) throw new OutboundError("status", `HTTP ${status} from the server`);
      if (redirects >= maxRedirects) throw new OutboundError("redirects", "too many redirects");
      target = outboundUrl(location, target);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The URL as fetched: http(s) only. `base` is the hop whose Location header this is. */
export function outboundUrl(text: string, base?: URL): URL {
  const after = base ? " (in a redirect)" : "";
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutboundError("url", `is not a valid URL${after}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundError("url", `only http and https URLs can be fetched, not ${url.protocol}${after}`);
  }
  return url;
}

/** What a POST sends besides the URL. */
interface Sent {
  headers: Record<string, string>;
  body: string;
}

/**
 * One POST, redirects not followed (a redirect is an answer like any other): the status and the start of
 * the body (at most `maxBytes`, the rest left unread). Checked and timed like fetchPublic.
 */
export async function postPublic(
  url: string,
  sent: Sent,
  options: FetchPublicOptions,
): Promise<{ status: number; body: string }> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError("timeout", `timed out after ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    const target = outboundUrl(url);
    const response = await get(target, options, deadline.signal, false, sent);
    const head = await readHead(response, options.maxBytes, deadline.signal);
    return { status: response.statusCode ?? 0, body: head };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Refuses (OutboundError "refused") a URL whose host is, or now resolves to, a non-public address; a host
 * that does not resolve passes (it may later), as does everything with `allowPrivate`.
 */
export async function checkPublicUrl(url: string, allowPrivate: boolean): Promise<void> {
  const target = outboundUrl(url);
  if (allowPrivate) return;
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host)
    ? [{ address: host }]
    : await dnsPromises.lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason) {
      const named = address === host ? host : `${host} resolves to ${address}, which`;
      throw new OutboundError("refused", `refused: ${named} is ${reason}`);
    }
  }
}

/** One request, answered once the response's headers are in: a GET, or a POST of `sent`. */
function get(
  target: URL,
  options: FetchPublicOptions,
  signal: AbortSignal,
  redirected: boolean,
  sent?: Sent,
) {
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const checked = !options.allowPrivate && !options.trustedOrigins?.includes(target.origin);
  const after = redirected ? " (in a redirect)" : "";
  if (checked && isIP(host)) {
    const reason = nonPublicReason(host);
    if (reason) throw new OutboundError("refused", `refused: ${host} is ${reason}${after}`);
  }
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    // No agent: a pooled connection could have been opened without this hop's check.
    const request = send(target, {
      method: sent ? "POST" : "GET",
      headers: sent ? { ...headers, ...sent.headers } : headers,
      agent: false,
      ...(checked && { lookup: publicLookup(after) }),
    });
    const abort = () => request.destroy(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    request.on("response", (response) => {
      signal.removeEventListener("abort", abort);
      resolve(response);
    });
    request.on("error", (error) => {
      signal.removeEventListener("abort", abort);
      reject(signal.aborted ? signal.reason : connectionFailure(error, host));
    });
    request.end(sent?.body);
  });
}

/** dns.lookup that fails unless every address the name resolves to is public. */
function publicLookup(after: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const reason = nonPublicReason(address);
        if (reason) {
          const refusal = `refused: ${hostname} resolves to ${address}, ${reason}${after}`;
          return callback(new OutboundError("refused", refusal) as NodeJS.ErrnoException, "", 0);
        }
      }
      const [first] = addresses;
      if (options.all) return callback(null, addresses);
      callback(null, first?.address ?? "", first?.family ?? 4);
    });
  };
}

/** The body, refused once it passes `maxBytes` (declared or received). */
async function readBody(
  response: IncomingMessage,
  host: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const tooLarge = () => new OutboundError("too-large", `too large (over ${maxBytes} bytes)`);
  if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const abort = () => response.destroy(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error instanceof OutboundError ? error : connectionFailure(error, host);
  } finally {
    signal.removeEventListener("abort", abort);
  }
  return Buffer.concat(chunks, size);
}

/** At most `maxBytes` of the body as text; the rest is not read (the connection is closed). */
async function readHead(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<string> {
  const abort = () => response.destroy(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) break;
    }
  } catch {
    // A body cut short says nothing more than the status already did.
  } finally {
    signal.removeEventListener("abort", abort);
    response.destroy();
  }
  return Buffer.concat(chunks, size).subarray(0, maxBytes).toString("utf8");
}
