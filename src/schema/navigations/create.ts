// POST /navigations: creates, or updates the navigation that already has the handle (idempotent create
// by handle). Concurrent creates of one handle end as one navigation: the losers of the unique-key race
// update it instead.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { accountScope } from "../access.ts";
import { accountArg } from "../args.ts";
import { builder } from "../builder.ts";
import { requireHandleStyle } from "../handles.ts";
import { newId, prefixes } from "../ids.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { withEvents } from "../webhooks/outbox.ts";
import { NavigationCreateInput } from "./inputs.ts";
import { NavigationCreatePayload } from "./payload.ts";

builder.mutationField("navigationCreate", (t) =>
  t.field({
    type: NavigationCreatePayload,
    args: { account_id: accountArg(t.arg), input: t.arg({ type: NavigationCreateInput, required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const { title, handle } = args.input;
      const byHandle = { accountId_handle: { ...scope, handle } };
      const query = queryFromInfo({ context: ctx, info, path: ["navigation"] });
      if (!(await ctx.db.navigation.findUnique({ where: byHandle, select: { id: true } }))) {
        // Only a handle this request creates is held to the caller's style; a stored one is updated.
        requireHandleStyle(ctx, "handle", handle);
        try {
          const id = newId(prefixes.navigation);
          const navigation = await withEvents(
            ctx,
            scope.accountId,
            ["navigation.created"],
            (db) => db.navigation.create({ ...query, data: { ...scope, id, title, handle } }),
            () => [{ type: "navigation.created", kind: "navigation", id }],
          );
          return { created: true, navigation };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      const navigation = await withEvents(
        ctx,
        scope.accountId,
        ["navigation.updated"],
        (db) => db.navigation.update({ ...query, where: byHandle, data: { title } }),
        (written) => [{ type: "navigation.updated", kind: "navigation", id: written.id }],
      );
      return { created: false, navigation };
    },
  }),
);
