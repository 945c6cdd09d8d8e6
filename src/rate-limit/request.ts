// Who a request is counted against: its API token when the token is valid (by token ID), else the
// client's IP address, so any number of requests with made-up or revoked tokens share their IP's budget.
import type { IncomingMessage } from "node:http";
import type { Context } from "../schema/context.ts";
import type { RateLimitSubject } from "./index.ts";

export async function rateLimitSubject(ctx: Context, ip: string): Promise<RateLimitSubject> {
  const viewer = await ctx.viewer();
  return viewer ? { kind: "token", tokenId: viewer.tokenId } : { kind: "ip", address: ip };
}

/**
 * The socket's peer address; behind a reverse proxy (trustProxy) the address that proxy appended last to
 * X-Forwarded-For, which a client cannot forge.
 */
export function clientIp(request: IncomingMessage | undefined, trustProxy: boolean): string {
  const peer = request?.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return peer;
  const forwarded = request?.headers["x-forwarded-for"];
  const list = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
  return list.map((address) => address.trim()).findLast(Boolean) ?? peer;
}
