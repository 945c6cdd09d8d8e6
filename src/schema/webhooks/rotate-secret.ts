// POST /webhooks/:id/rotate_secret: a new secret, answered once; deliveries from now on are signed with it
// (a retry of an older event too: the signature is made at each attempt).
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { webhookIdArg } from "./args.ts";
import { findWebhook } from "./find.ts";
import { newSecret } from "./secret.ts";
import { WebhookWithSecretRef } from "./type.ts";

builder.mutationField("webhookRotateSecret", (t) =>
  t.prismaField({
    type: WebhookWithSecretRef,
    args: { account_id: accountArg(t.arg), id: webhookIdArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findWebhook(ctx, scope, args.id, { select: { id: true } });
      return ctx.db.webhook.update({ ...query, where: { id: stored.id }, data: { secret: newSecret() } });
    },
  }),
);
