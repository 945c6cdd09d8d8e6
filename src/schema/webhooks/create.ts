// POST /webhooks: 201 with the webhook and its secret, the only answer besides a rotation that shows it.
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { newId, prefixes } from "../ids.ts";
import { WebhookCreateInput } from "./inputs.ts";
import { newSecret } from "./secret.ts";
import { requirePublicTarget } from "./target.ts";
import { WebhookWithSecretRef } from "./type.ts";

builder.mutationField("webhookCreate", (t) =>
  t.prismaField({
    type: WebhookWithSecretRef,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: WebhookCreateInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { url, events, enabled, description } = args.input;
      await requirePublicTarget(ctx, url);
      const data = {
        ...scope,
        id: newId(prefixes.webhook),
        url,
        events: [...new Set(events)],
        enabled: enabled ?? true,
        description: description ?? null,
        secret: newSecret(),
      };
      return ctx.db.webhook.create({ ...query, data });
    },
  }),
);
