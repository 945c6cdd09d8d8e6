// DELETE /webhooks/:id: 204; its pending deliveries go with it (nothing is sent to a webhook deleted).
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { webhookIdArg } from "./args.ts";

builder.mutationField("webhookDelete", (t) =>
  t.id({
    description: "Deletes the webhook; returns its ID.",
    args: { account_id: accountArg(t.arg), id: webhookIdArg(t.arg) },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { count } = await ctx.db.webhook.deleteMany({ where: { ...scope, id: args.id } });
      if (count === 0) throw ApiError.notFound("Webhook");
      return args.id;
    },
  }),
);
