// Where a webhook may send: an http(s) URL whose host is not, and does not resolve to, a loopback,
// private, link-local or other non-public address (unless OUTBOUND_ALLOW_PRIVATE). Checked when the URL
// is set, and again by the dispatcher on every delivery, since DNS can change.
import { checkPublicUrl, OutboundError } from "../../http/outbound.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";

export async function requirePublicTarget(ctx: Context, url: string): Promise<void> {
  try {
    await checkPublicUrl(url, ctx.outboundAllowPrivate);
  } catch (error) {
    if (error instanceof OutboundError) throw ApiError.invalid("url", error.message);
    throw error;
  }
}
