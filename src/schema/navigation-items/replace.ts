// Replaces a navigation's whole item tree in one transaction (the tool interface's `navigations_save`).
// Nothing is written unless every item passes: field rules as on create, and, unlike create (rule 4), a
// link to an unknown entry is refused (422 on its `entry_handle`) as on update: whoever sends a whole
// tree wants each link in it, and a link silently dropped would only show later as a dead menu item.
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { Problems } from "../errors.ts";
import { findNavigation } from "../navigations/find.ts";
import { NavigationWithItemsRef } from "../navigations/type.ts";
import { issuePath } from "../validation.ts";
import { NavigationTreeItemInput, TREE_DEPTH_LIMIT, TREE_ITEMS_LIMIT } from "./inputs.ts";
import { itemsChanged } from "./items-changed.ts";
import { findLinkedEntry, lockNavigation } from "./rules.ts";
import { planTree } from "./tree-plan.ts";

builder.mutationField("navigationItemsReplace", (t) =>
  t.prismaField({
    type: NavigationWithItemsRef,
    description: "Replaces all of the navigation's items with `items`; answers it as `navigation` does.",
    args: {
      account_id: accountArg(t.arg),
      navigation_id: idArg(t.arg, "navigation"),
      items: t.arg({
        type: [NavigationTreeItemInput],
        required: true,
        description:
          `The new top-level items in order, each with its \`children\`; at most ${TREE_ITEMS_LIMIT} items ` +
          `in all and ${TREE_DEPTH_LIMIT} levels. Nothing changes when any item is invalid, a link to an ` +
          "unknown entry included.",
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const navigation = await findNavigation(ctx, scope, args.navigation_id);
      const problems = new Problems();
      const planned = planTree(args.items, problems);
      await ctx.db.$transaction((tx) =>
        itemsChanged(ctx, tx, scope, navigation.id, async () => {
          await lockNavigation(tx, scope, navigation.id);
          // One lookup per distinct pair: a menu often links one entry from several places.
          const entries = new Map<string, string | undefined>();
          const rows = [];
          for (const { link, path, ...item } of planned) {
            let entryId: string | undefined;
            if (link) {
              const key = JSON.stringify([link.collection, link.entry]);
              if (!entries.has(key))
                entries.set(key, await findLinkedEntry(tx, scope, link.collection, link.entry));
              entryId = entries.get(key);
              if (!entryId)
                problems.add(
                  issuePath([...path, "entry_handle"]),
                  `no entry '${link.entry}' in collection '${link.collection}'`,
                );
            }
            rows.push({
              ...scope,
              ...item,
              navigationId: navigation.id,
              url: entryId ? null : item.url,
              entryId,
            });
          }
          problems.throwIfAny();
          // Children go with their parents (the parent key cascades); the new rows come in outline order,
          // so each parent is there before its children.
          await tx.navigationItem.deleteMany({ where: { ...scope, navigationId: navigation.id } });
          await tx.navigationItem.createMany({ data: rows });
        }),
      );
      return findNavigation(ctx, scope, navigation.id, query);
    },
  }),
);
