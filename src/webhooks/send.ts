// One attempt: the event's body POSTed with the Standard Webhooks headers (signed by the
// `standardwebhooks` package with the webhook's current secret), redirects not followed, the answer's
// body read only to a small limit. The address check is made again here: DNS may have changed since the
// URL was set.
import { Webhook } from "standardwebhooks";
import { OutboundError, postPublic } from "../http/outbound.ts";
import type { Outcome } from "../schema/webhooks/attempt.ts";
import type { Claimed } from "../schema/webhooks/claim.ts";

/** Kept of a failed answer's body in the log. */
const ANSWER_BYTES = 1024;

/** `{type, timestamp, data}`, made in the change's transaction and sent as is on every attempt. */
export function eventBody(delivery: Claimed): string {
  return (
    delivery.body ??
    JSON.stringify({
      type: delivery.eventType,
      timestamp: delivery.occurredAt.toISOString(),
      data: null,
    })
  );
}

export async function sendDelivery(
  delivery: Claimed,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<Outcome> {
  const sentAt = new Date();
  const signature = new Webhook(delivery.webhook.secret).sign(delivery.id, sentAt, body);
  const headers = {
    "content-type": "application/json",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signature,
  };
  try {
    const answer = await postPublic(
      delivery.webhook.url,
      { headers, body },
      { allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs, maxBytes: ANSWER_BYTES },
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return { status: answer.status, error: ok ? null : `HTTP ${answer.status}: ${answer.body}`.trim() };
  } catch (error) {
    if (error instanceof OutboundError) return { status: null, error: error.message };
    return { status: null, error: "the request failed" };
  }
}
