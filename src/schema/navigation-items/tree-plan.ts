// A submitted item tree (navigationItemsReplace) checked and laid out as rows before anything is written.
// Each item is held to the rules of item create (the same field schemas from inputs.ts); every problem is
// collected with the item's path, e.g. `items[2].children[0].url`, so one 422 tells the caller all of them.
import type { z } from "zod";
import type { Problems } from "../errors.ts";
import { newId, prefixes } from "../ids.ts";
import { issuePath } from "../validation.ts";
import {
  referenceSchema,
  TREE_DEPTH_LIMIT,
  TREE_ITEMS_LIMIT,
  TREE_TOO_DEEP,
  TREE_TOO_LARGE,
  type TreeItemInput,
  titleSchema,
  urlSchema,
} from "./inputs.ts";

type Path = (string | number)[];

export interface PlannedItem {
  id: string;
  parentId: string | null;
  title: string;
  url: string | null;
  /** The entry the item should link to, still to be looked up (collection, entry: handles or IDs). */
  link?: { collection: string; entry: string };
  priority: number;
  /** Where the item was in the request, for problems found later (an unknown entry). */
  path: Path;
}

interface Pending {
  input: TreeItemInput;
  /** Its place among its siblings, which is its priority. */
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

/** The rows of `items` in outline order (a parent before its children, as the foreign key needs). */
export function planTree(items: readonly TreeItemInput[], problems: Problems): PlannedItem[] {
  if (countItems(items) > TREE_ITEMS_LIMIT) {
    problems.add("items", TREE_TOO_LARGE);
    return [];
  }
  const planned: PlannedItem[] = [];
  const stack: Pending[] = items
    .map((input, index) => ({ input, index, path: ["items", index], parentId: null, depth: 1 }))
    .reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { input, path } = next;
    const id = newId(prefixes.navigationItem);
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
      parentId: next.parentId,
      title,
      url,
      ...(link && { link }),
      priority: next.index,
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
