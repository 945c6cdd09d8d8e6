// A submitted item tree (navigationItemsReplace) checked and laid out as rows before anything is written.
// Each item is held to the rules of item create (the same field schemas from inputs.ts); every problem is
// collected with the item's path, e.g. `items[2].children[0].url`, so one 422 tells the caller all of them.
// An item given with its `id` is that item kept; its `priority` is kept too while it agrees with the
// array's order (settlePriorities), so a tree read and written back as it is comes out unchanged.
import type { z } from "zod";
import type { Problems } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { issuePath } from "../validation.ts";
import {
  prioritySchema,
  referenceSchema,
  TREE_DEPTH_LIMIT,
  TREE_ITEMS_LIMIT,
  TREE_TOO_DEEP,
  TREE_TOO_LARGE,
  type TreeItemInput,
  titleSchema,
  urlSchema,
} from "./inputs.ts";
import { compareSiblings, type ItemRow } from "./tree.ts";

type Path = (string | number)[];

export interface PlannedItem {
  id: string;
  parentId: string | null;
  title: string;
  url: string | null;
  /** The entry the item should link to, still to be looked up (collection, entry: handles or IDs). */
  link?: { collection: string; entry: string };
  /** Its place among its siblings. */
  priority: number;
  /** Where the item was in the request, for problems found later (an unknown entry or item). */
  path: Path;
}

/** A planned item of a tree whose items may be kept (navigationItemsReplace). */
export interface KeptPlannedItem extends PlannedItem {
  /** Whether `id` was given: the item is one the navigation should already have. */
  kept: boolean;
  /** The priority asked for, if any (settlePriorities decides). */
  asked?: number;
}

interface Pending {
  input: TreeItemInput;
  /** Its place among its siblings. */
  index: number;
  path: Path;
  parentId: string | null;
  depth: number;
}

function parsed<Out>(
  schema: z.ZodType<Out>,
  value: unknown,
  path: Path,
  problems: Problems,
): Out | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.add(issuePath(path), issue.message);
  return undefined;
}

function countItems(items: readonly TreeItemInput[]): number {
  let count = 0;
  const stack = [items];
  for (let level = stack.pop(); level && count <= TREE_ITEMS_LIMIT; level = stack.pop()) {
    count += level.length;
    for (const item of level) if (item.children) stack.push(item.children);
  }
  return count;
}

/**
 * The rows of `items` in outline order (a parent before its children, as the foreign key needs), each a
 * new item placed by its place in the array: IDs and priorities given are not looked at (an import file's
 * items are new wherever the file came from).
 */
export function planTree(items: readonly TreeItemInput[], problems: Problems): PlannedItem[] {
  return plan(items, problems, false).map(({ kept: _kept, asked: _asked, ...item }) => item);
}

/** The rows of `items` as planTree has them, keeping the IDs and priorities given (checked). */
export function planKeptTree(items: readonly TreeItemInput[], problems: Problems): KeptPlannedItem[] {
  return plan(items, problems, true);
}

function plan(items: readonly TreeItemInput[], problems: Problems, keep: boolean): KeptPlannedItem[] {
  if (countItems(items) > TREE_ITEMS_LIMIT) {
    problems.add("items", TREE_TOO_LARGE);
    return [];
  }
  const planned: KeptPlannedItem[] = [];
  const ids = new Set<string>();
  const stack: Pending[] = items
    .map((input, index) => ({ input, index, path: ["items", index], parentId: null, depth: 1 }))
    .reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { input, path } = next;
    const given =
      !keep || input.id == null ? undefined : parsed(referenceSchema, input.id, [...path, "id"], problems);
    if (given !== undefined && ids.has(given))
      problems.add(issuePath([...path, "id"]), "is given to another item of the tree too");
    const id = given ?? newId(prefixes.navigationItem);
    ids.add(id);
    const asked =
      !keep || input.priority == null
        ? undefined
        : parsed(prioritySchema, input.priority, [...path, "priority"], problems);
    const title = parsed(titleSchema, input.title, [...path, "title"], problems) ?? "";
    const url = input.url == null ? null : (parsed(urlSchema, input.url, [...path, "url"], problems) ?? null);
    const collection = input.collection_handle || undefined;
    const entry = input.entry_handle || undefined;
    if (collection) parsed(referenceSchema, collection, [...path, "collection_handle"], problems);
    if (entry) parsed(referenceSchema, entry, [...path, "entry_handle"], problems);
    if (collection && !entry)
      problems.add(issuePath([...path, "entry_handle"]), "is required with collection_handle");
    if (entry && !collection)
      problems.add(issuePath([...path, "collection_handle"]), "is required with entry_handle");
    const link = collection && entry ? { collection, entry } : undefined;
    planned.push({
      id,
      kept: given !== undefined,
      parentId: next.parentId,
      title,
      url,
      ...(link && { link }),
      priority: next.index,
      ...(asked !== undefined && { asked }),
      path,
    });
    const children = input.children ?? [];
    if (children.length > 0 && next.depth >= TREE_DEPTH_LIMIT) {
      problems.add(issuePath([...path, "children"]), TREE_TOO_DEEP);
      continue;
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index] as TreeItemInput;
      stack.push({
        input: child,
        index,
        path: [...path, "children", index],
        parentId: id,
        depth: next.depth + 1,
      });
    }
  }
  return planned;
}

/**
 * The priority each item is written with, by ID: siblings come out in the array's order. An item keeps the
 * priority it is given while that still sorts it after its previous sibling (ties going by creation, then
 * ID, as reads sort them); otherwise, or without one, it gets the previous sibling's plus one (0 first).
 * `stored` has the items the navigation has; new items are created at `now`.
 */
export function settlePriorities(
  planned: readonly KeptPlannedItem[],
  stored: ReadonlyMap<string, ItemRow>,
  now: Date,
): Map<string, number> {
  const priorities = new Map<string, number>();
  const lastOf = new Map<string | null, ItemRow>();
  for (const item of planned) {
    const previous = lastOf.get(item.parentId);
    const createdAt = stored.get(item.id)?.createdAt ?? now;
    const sorted = { id: item.id, createdAt, priority: item.asked ?? 0 } as ItemRow;
    if (previous && (item.asked === undefined || compareSiblings(sorted, previous) <= 0))
      sorted.priority = previous.priority + 1;
    priorities.set(item.id, sorted.priority);
    lastOf.set(item.parentId, sorted);
  }
  return priorities;
}
