// POST /navigations/:navigation_id/items. Idempotent (rule 2): an item of the navigation with the same
// title and url (or the same title and linked entry) is updated instead of duplicated. Unknown references
// are ignored (rule 4): the item is written without the link or the parent.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { Problems } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { findNavigation } from "../navigations/find.ts";
import { NavigationItemCreateInput } from "./inputs.ts";
import { itemsChanged } from "./items-changed.ts";
import { NavigationItemCreatePayload } from "./payload.ts";
import { readItem, readItems } from "./read.ts";
import { afterSiblings, checkNewItem, findLinkedEntry, lockNavigation, placeItem } from "./rules.ts";
import { compareSiblings } from "./tree.ts";

builder.mutationField("navigationItemCreate", (t) =>
  t.field({
    type: NavigationItemCreatePayload,
    args: {
      account_id: accountArg(t.arg),
      navigation_id: idArg(t.arg, "navigation"),
      input: t.arg({ type: NavigationItemCreateInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      const input = args.input;
      const written = await ctx.db.$transaction((tx) =>
        itemsChanged(ctx, tx, scope, navigation.id, async () => {
          await lockNavigation(tx, scope, navigation.id);
          const entryId =
            input.collection_handle && input.entry_handle
              ? await findLinkedEntry(tx, scope, input.collection_handle, input.entry_handle)
              : undefined;
          const url = entryId ? null : (input.url ?? null);
          const rows = await readItems(tx, scope, navigation.id);
          const parentId =
            input.parent_id === null ? null : rows.find((row) => row.id === input.parent_id)?.id;
          const same = rows
            .filter(
              (row) =>
                row.title === input.title &&
                (entryId ? row.entryId === entryId : row.entryId === null && row.url === url),
            )
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareSiblings(a, b))[0];
          if (same) {
            const problems = new Problems();
            const placement = placeItem(rows, same, parentId, input.priority, problems);
            problems.throwIfAny();
            await tx.navigationItem.updateMany({ where: { ...scope, id: same.id }, data: placement });
            return { id: same.id, created: false };
          }
          const problems = new Problems();
          checkNewItem(rows, parentId ?? null, problems);
          problems.throwIfAny();
          const id = newId(prefixes.navigationItem);
          await tx.navigationItem.create({
            data: {
              ...scope,
              id,
              navigationId: navigation.id,
              parentId: parentId ?? null,
              title: input.title,
              url,
              entryId: entryId ?? null,
              priority: input.priority ?? afterSiblings(rows, parentId ?? null),
            },
          });
          return { id, created: true };
        }),
      );
      return { created: written.created, item: await readItem(ctx.db, scope, navigation.id, written.id) };
    },
  }),
);
