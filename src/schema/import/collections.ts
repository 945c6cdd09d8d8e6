// The `collections` section (with the blueprints each owns inline) and the standalone `blueprints`
// section. A collection is held to collectionCreate's rules and its feed settings to
// collectionFeedUpdate's; matched by handle, created or updated, left alone when every setting is as
// stored. A changed routing moves the paths of its entries the file does not hold too (refreshPaths).
import type { Collection } from "../../generated/sqlite/client.ts";
import type { CollectionCreate } from "../collections/inputs.ts";
import { checkRootRouting, collectionColumns } from "../collections/rules.ts";
import { refreshPaths } from "../entries/paths.ts";
import { Problems } from "../errors.ts";
import { prefixes } from "../ids.ts";
import { newBlueprintWrites, planBlueprints, writeBlueprints } from "./blueprints.ts";
import { checkInput } from "./input-check.ts";
import { orderedIds } from "./ordered-ids.ts";
import { firstTime, type ImportRun, listOf, tally, type Write } from "./run.ts";
import { checkTemplateRefs } from "./template-refs.ts";

interface FeedInput {
  feed_enabled?: boolean | null;
  feed_path?: string | null;
  feed_title?: string | null;
  feed_description?: string | null;
  feed_limit?: number | null;
}

type Columns = Partial<Collection>;

function feedColumns(feed: FeedInput): Columns {
  return {
    ...(feed.feed_enabled != null && { feedEnabled: feed.feed_enabled }),
    ...(feed.feed_path !== undefined && { feedPath: feed.feed_path }),
    ...(feed.feed_title !== undefined && { feedTitle: feed.feed_title || null }),
    ...(feed.feed_description !== undefined && { feedDescription: feed.feed_description || null }),
    ...(feed.feed_limit != null && { feedLimit: feed.feed_limit }),
  };
}

export async function planCollections(run: ImportRun, section: unknown, standalone: unknown): Promise<Write> {
  const { ctx, scope, index } = run;
  const blueprintWrites = newBlueprintWrites();
  const blueprintHandles = new Set<string>();
  const creates: Columns[] = [];
  const updates: { id: string; columns: Columns; moved: boolean }[] = [];
  const seen = new Set<string>();
  const records = listOf(run, ["collections"], section);
  const ids = orderedIds(prefixes.collection, records.length);
  const feeds = new Map<string, string>();
  const roots: string[] = [];
  for (const [position, { at, record }] of records.entries()) {
    const { blueprint: _inline, blueprint_handle: _attach, ...settings } = record;
    const input = checkInput<CollectionCreate>("CollectionCreateInput", settings, at, run.problems);
    const feed = checkInput<FeedInput>("CollectionFeedInput", settings, at, run.problems);
    if (!input || !feed || !firstTime(run, seen, input.handle, at)) continue;
    const stored = index.collections.get(input.handle);
    const id = stored?.id ?? (ids[position] as string);
    const columns = { ...collectionColumns(input), ...feedColumns(feed) };
    const rootRouting = input.root_routing ?? stored?.rootRouting ?? false;
    if (rootRouting) roots.push(input.handle);
    // The rules of a collection write, but for its template handles, which may be in this file.
    const problems = new Problems();
    const { template_handle, layout_handle, index_template_handle } = input;
    await checkRootRouting(ctx.db, scope, { id: stored?.id, routing: input.routing, rootRouting }, problems);
    run.problems.addDetails(at, problems.list);
    checkTemplateRefs(run, at, { template_handle, layout_handle, index_template_handle });
    const enabled = feed.feed_enabled ?? stored?.stored?.feedEnabled ?? false;
    const feedPath = feed.feed_path !== undefined ? feed.feed_path : (stored?.stored?.feedPath ?? null);
    if (enabled && !feedPath) run.problems.add([...at, "feed_path"], "is required when feed_enabled is true");
    if (enabled && feedPath) {
      const other = feeds.get(feedPath);
      if (other) run.problems.add([...at, "feed_path"], `is already the feed of collection '${other}'`);
      feeds.set(feedPath, input.handle);
    }
    const blueprints = planBlueprints(
      run,
      [...at, "blueprints"],
      record.blueprints,
      { id, handle: input.handle },
      blueprintHandles,
      blueprintWrites,
    );
    if (!stored) {
      creates.push({ ...columns, id, name: input.name, handle: input.handle, routing: input.routing });
      index.collections.set(input.handle, {
        id,
        handle: input.handle,
        routing: input.routing,
        rootRouting,
        blueprints,
      });
      tally(run, "collections", "created");
      continue;
    }
    // Blueprints the collection has and the file does not list stay its own, after the file's.
    const kept = stored.blueprints.filter((blueprint) => !blueprints.includes(blueprint));
    stored.blueprints = [...blueprints, ...kept].sort((a, b) => (a.id < b.id ? -1 : 1));
    const changed = Object.entries(columns).filter(
      ([key, value]) => !sameValue(stored.stored?.[key as keyof Collection], value),
    );
    const moved = input.routing !== stored.routing || rootRouting !== stored.rootRouting;
    Object.assign(stored, { routing: input.routing, rootRouting });
    if (changed.length === 0) tally(run, "collections", "unchanged");
    else {
      updates.push({ id, columns: Object.fromEntries(changed), moved });
      tally(run, "collections", "updated");
    }
  }
  if (roots.length > 1)
    run.problems.add(["collections"], `root_routing is set on more than one collection: ${roots.join(", ")}`);
  // Enabled feeds the file does not touch keep their paths.
  for (const collection of index.collections.values()) {
    const row = collection.stored;
    if (!row?.feedEnabled || !row.feedPath || seen.has(row.handle)) continue;
    const other = feeds.get(row.feedPath);
    if (other)
      run.problems.add(
        ["collections"],
        `feed_path '${row.feedPath}' of '${other}' is already the feed of collection '${row.handle}'`,
      );
  }
  planBlueprints(run, ["blueprints"], standalone, { id: null }, blueprintHandles, blueprintWrites);
  return async (tx) => {
    for (const row of creates)
      await tx.collection.create({
        data: { ...(row as Collection), ...scope, createdAt: run.now, updatedAt: run.now },
      });
    for (const { id, columns } of updates) await tx.collection.update({ where: { id }, data: columns });
    await writeBlueprints(tx, run, blueprintWrites);
    // Entries' paths follow a new routing once the entries themselves are written: see `refreshMoved`.
    run.moved = updates.filter((update) => update.moved).map((update) => update.id);
  };
}

/** After the entries: every entry of a collection whose routing changed gets its new path. */
export async function refreshMoved(tx: Parameters<Write>[0], run: ImportRun): Promise<void> {
  for (const id of run.moved ?? []) await refreshPaths(tx, id);
}

function sameValue(stored: unknown, wanted: unknown): boolean {
  return (stored ?? null) === (wanted ?? null);
}
