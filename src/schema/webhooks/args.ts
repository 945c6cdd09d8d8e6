// Webhooks and deliveries have no handles: a path names them by ID.
import type { ArgBuilder } from "@pothos/core";

// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
type Args = ArgBuilder<any>;

export const webhookIdArg = (arg: Args) =>
  arg.id({ required: true, description: "The webhook's prefix ID (whk_...)." });

export const deliveryIdArg = (arg: Args) =>
  arg.id({ required: true, description: "The delivery's prefix ID (msg_...): its `webhook-id` header." });
