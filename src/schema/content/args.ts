// Arguments and the where-clause shared by the two list queries (page numbers and cursors).
import type { ArgBuilder } from "@pothos/core";
import type { Prisma } from "../../generated/sqlite/client.ts";
import { type AccountScope, accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import type { Context } from "../context.ts";
import { visible } from "../site/scope.ts";
import { type ContentCollection, contentCollection } from "./collection.ts";
import { type ContentFilter, ContentFilterInput, type ContentSort, ContentSortInput } from "./inputs.ts";
import { type SortKey, sortKeys } from "./order.ts";
import { filterWhere } from "./where.ts";

// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameter
type Args = ArgBuilder<any>;

export const listQueryArgs = (arg: Args) => ({
  account_id: accountArg(arg),
  collection: idArg(arg, "collection"),
  filter: arg({ type: [ContentFilterInput], description: "Conditions that must all hold." }),
  sort: arg({ type: [ContentSortInput], description: "Sort keys; default: the site order." }),
});

export interface ListQuery {
  account_id: string;
  collection: string;
  filter?: readonly ContentFilter[] | null;
  sort?: readonly ContentSort[] | null;
}

export interface ListPlan {
  scope: AccountScope;
  collection: ContentCollection;
  /** Always of the one account (`scope`). */
  where: Prisma.EntryWhereInput & AccountScope;
  keys: SortKey[];
}

/** The visible entries of the collection (site/scope.ts) that match the filters, and their order. */
export async function planList(ctx: Context, args: ListQuery): Promise<ListPlan> {
  const scope = await accountScope(ctx, args.account_id);
  const collection = await contentCollection(ctx, scope, args.collection);
  const keys = sortKeys(args.sort, collection.orderable);
  const conditions = await filterWhere(
    ctx,
    { collectionId: collection.id, fields: collection.fields },
    args.filter,
  );
  const where = { ...scope, ...(await visible(ctx)), collectionId: collection.id, AND: conditions };
  return { scope, collection, where, keys };
}
