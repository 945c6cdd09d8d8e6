// GET /webhooks (newest first) and GET /webhooks/:id. Reading them needs a write token: a webhook's URL
// may carry a receiver's credentials.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { listPage, pageSchema } from "../pagination.ts";
import { webhookIdArg } from "./args.ts";
import { findWebhook } from "./find.ts";
import { WebhookList, WebhookRef } from "./type.ts";

builder.queryField("webhooks", (t) =>
  t.field({
    type: WebhookList,
    description: "The account's webhooks, newest first.",
    args: {
      account_id: accountArg(t.arg),
      page: t.arg.int({ description: "Page number, from 1.", validate: pageSchema }),
    },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return listPage(args.page, ctx.db.webhook.count({ where: scope }), (range) =>
        ctx.db.webhook.findMany({ ...query, where: scope, orderBy: { id: "desc" }, ...range }),
      );
    },
  }),
);

builder.queryField("webhook", (t) =>
  t.prismaField({
    type: WebhookRef,
    args: { account_id: accountArg(t.arg), id: webhookIdArg(t.arg) },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      return findWebhook(ctx, scope, args.id, query);
    },
  }),
);
