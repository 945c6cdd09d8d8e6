// A webhook as the API returns it. The secret is never read back: only the create and the rotation answer
// it (WebhookWithSecret), once.
import { builder } from "../builder.ts";
import { listType } from "../pagination.ts";

export const WebhookRef = builder.prismaObject("Webhook", {
  fields: (t) => ({
    id: t.exposeID("id"),
    url: t.exposeString("url"),
    events: t.stringList({ resolve: (hook) => hook.events as string[] }),
    enabled: t.exposeBoolean("enabled"),
    description: t.exposeString("description", { nullable: true }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const WebhookWithSecretRef = builder.prismaObject("Webhook", {
  variant: "WebhookWithSecret",
  description: "A webhook with its signing secret: answered by the create and the rotation only.",
  fields: (t) => ({
    id: t.exposeID("id"),
    url: t.exposeString("url"),
    events: t.stringList({ resolve: (hook) => hook.events as string[] }),
    enabled: t.exposeBoolean("enabled"),
    description: t.exposeString("description", { nullable: true }),
    secret: t.exposeString("secret", {
      description: "`whsec_` + base64: verify signatures with it (Standard Webhooks). Shown once.",
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const WebhookList = listType("Webhook", WebhookRef);

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  fields: (t) => ({
    id: t.exposeID("id", { description: "The `webhook-id` header of every attempt." }),
    webhook_id: t.exposeID("webhookId"),
    event_type: t.exposeString("eventType"),
    status: t.exposeString("status", { description: "pending, delivered or failed." }),
    attempts: t.exposeInt("attempts"),
    last_response_status: t.exposeInt("lastStatus", { nullable: true }),
    last_error: t.exposeString("lastError", { nullable: true }),
    next_attempt_at: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (delivery) => (delivery.status === "pending" ? delivery.nextAttemptAt : null),
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const WebhookDeliveryList = listType("WebhookDelivery", WebhookDeliveryRef);
