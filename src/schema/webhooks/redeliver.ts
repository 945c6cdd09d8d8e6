// POST /webhooks/:id/deliveries/:delivery/redeliver: the delivery is due again now, with the same ID and
// body (a receiver that already has it can tell by `webhook-id`), and counts its attempts on.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { deliveryIdArg, webhookIdArg } from "./args.ts";
import { findWebhook } from "./find.ts";
import { WebhookDeliveryRef } from "./type.ts";

builder.mutationField("webhookRedeliver", (t) =>
  t.prismaField({
    type: WebhookDeliveryRef,
    args: { account_id: accountArg(t.arg), id: webhookIdArg(t.arg), delivery: deliveryIdArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const webhook = await findWebhook(ctx, scope, args.id, { select: { id: true } });
      const where = { id: args.delivery, webhookId: webhook.id };
      const { count } = await ctx.db.webhookDelivery.updateMany({
        where,
        data: { status: "pending", nextAttemptAt: new Date() },
      });
      if (count === 0) throw ApiError.notFound("Delivery");
      ctx.webhookDispatch.nudge();
      return ctx.db.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: args.delivery } });
    },
  }),
);
