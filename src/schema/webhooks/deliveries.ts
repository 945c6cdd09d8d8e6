// GET /webhooks/:id/deliveries: the delivery log, newest first (kept WEBHOOK_LOG_KEEP_DAYS, 30 by default).
import { queryFromInfo } from "@pothos/plugin-prisma";
import { z } from "zod";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, pageSchema } from "../pagination.ts";
import { webhookIdArg } from "./args.ts";
import { findWebhook } from "./find.ts";
import { WebhookDeliveryList } from "./type.ts";

/** The states of a delivery: waiting for (another) attempt, received by the endpoint, given up. */
export const deliveryStatuses = ["pending", "delivered", "failed"] as const;

builder.queryField("webhookDeliveries", (t) =>
  t.field({
    type: WebhookDeliveryList,
    description: "A webhook's deliveries, newest first.",
    args: {
      account_id: accountArg(t.arg),
      id: webhookIdArg(t.arg),
      status: t.arg.string({
        description: "Only deliveries in this status: pending, delivered or failed.",
        validate: z.enum(deliveryStatuses, `must be one of ${deliveryStatuses.join(", ")}`),
      }),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const webhook = await findWebhook(ctx, scope, args.id, { select: { id: true } });
      const where = { webhookId: webhook.id, ...(args.status != null && { status: args.status }) };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.webhookDelivery.count({ where }), (range) =>
        ctx.db.webhookDelivery.findMany({ ...query, where, orderBy: { id: "desc" }, ...range }),
      );
    },
  }),
);
