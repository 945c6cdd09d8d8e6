// PUT/PATCH /navigations/:id: only the sent fields change.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { requireHandleStyle } from "../handles.ts";
import { isUniqueViolation } from "../prisma-errors.ts";
import { type Tx, withEvents } from "../webhooks/outbox.ts";
import { findNavigation } from "./find.ts";
import { NavigationUpdateInput } from "./inputs.ts";
import { NavigationRef } from "./type.ts";

builder.mutationField("navigationUpdate", (t) =>
  t.prismaField({
    type: NavigationRef,
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "navigation"),
      input: t.arg({ type: NavigationUpdateInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findNavigation(ctx, scope, args.id);
      const { title, handle } = args.input;
      if (handle != null && handle !== stored.handle) requireHandleStyle(ctx, "handle", handle);
      try {
        const event = { type: "navigation.updated", kind: "navigation", id: stored.id } as const;
        const write = (db: Tx) =>
          db.navigation.update({
            ...query,
            where: { id: stored.id },
            data: { ...(title != null && { title }), ...(handle != null && { handle }) },
          });
        return await withEvents(ctx, scope.accountId, [event.type], write, () => [event]);
      } catch (error) {
        if (isUniqueViolation(error))
          throw ApiError.invalid("handle", "is already used by another navigation");
        throw error;
      }
    },
  }),
);
