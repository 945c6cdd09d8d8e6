// PUT/PATCH /webhooks/:id: the fields sent change; a new URL is checked like a create's.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { webhookIdArg } from "./args.ts";
import { findWebhook } from "./find.ts";
import { WebhookUpdateInput } from "./inputs.ts";
import { requirePublicTarget } from "./target.ts";
import { WebhookRef } from "./type.ts";

builder.mutationField("webhookUpdate", (t) =>
  t.prismaField({
    type: WebhookRef,
    args: {
      account_id: accountArg(t.arg),
      id: webhookIdArg(t.arg),
      input: t.arg({ type: WebhookUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findWebhook(ctx, scope, args.id, { select: { id: true } });
      const { url, events, enabled, description } = args.input;
      if (url != null) await requirePublicTarget(ctx, url);
      return ctx.db.webhook.update({
        ...query,
        where: { id: stored.id },
        data: {
          ...(url != null && { url }),
          ...(events != null && { events: [...new Set(events)] }),
          ...(enabled != null && { enabled }),
          ...(description !== undefined && { description }),
        },
      });
    },
  }),
);
