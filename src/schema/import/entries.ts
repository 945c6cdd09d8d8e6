// The `entries` section: each collection's entries, held to entryCreate's rules (fields, templates, the
// blueprint's value rules through normalizeValues, the routing's needs) and routing overrides to
// entryRoutingUpdate's. First every entry of the file gets its ID (stored, or new in file order), so
// references between entries of the file resolve whatever their order; then each is checked and
// compared with what is stored: an entry as stored is left alone (no version bump, no revision). The
// file is the entry's whole state: keys it leaves out take their defaults, its values replace the
// stored ones.
import type { readFields } from "../blueprints/fields.ts";
import type { CollectionRow } from "../collections/find.ts";
import { fieldTokens, usesDate } from "../collections/routing.ts";
import type { EntryCreate } from "../entries/inputs.ts";
import { contentPath } from "../entries/paths.ts";
import { chooseBlueprint } from "../entries/prepare.ts";
import { isPlainObject, normalizeValues } from "../entries/values.ts";
import { ApiError, Problems } from "../errors.ts";
import { entryReference } from "../export/references.ts";
import { prefixes } from "../ids.ts";
import type { EntryRow } from "../revisions/state.ts";
import type { Path } from "./document.ts";
import { resolvedValues } from "./entry-values.ts";
import { type EntryWrites, writeEntries } from "./entry-writes.ts";
import { checkInput } from "./input-check.ts";
import { orderedIds } from "./ordered-ids.ts";
import { firstTime, type ImportRun, listOf, sameJson, tally, type Write } from "./run.ts";
import type { IndexedCollection } from "./site-index.ts";
import { checkTemplateRefs } from "./template-refs.ts";

const PROGRESS_EVERY = 1000;

interface Pending {
  at: Path;
  record: Record<string, unknown>;
  collection: IndexedCollection;
  id: string;
}

export async function planEntries(run: ImportRun, section: unknown): Promise<Write> {
  const pending = registerEntries(run, section);
  const writes: EntryWrites = { creates: [], updates: [], references: [] };
  const overrides: { at: Path; key: string; path: string }[] = [];
  for (const [done, item] of pending.entries()) {
    await run.pause();
    const planned = await planEntry(run, item, writes);
    if (planned?.override) overrides.push(planned.override);
    if (done % PROGRESS_EVERY === 0) run.progress("checking", done, pending.length);
  }
  run.progress("checking", pending.length, pending.length);
  checkOverridePaths(run, overrides);
  return (tx) => writeEntries(tx, run, writes);
}

/** Every entry of the file in the index, with its ID: references may point forward in the file. */
function registerEntries(run: ImportRun, section: unknown): Pending[] {
  const pending: Pending[] = [];
  if (section == null) return pending;
  if (typeof section !== "object" || Array.isArray(section)) {
    run.problems.add(["entries"], "must map each collection's handle to its list of entries");
    return pending;
  }
  const lists = Object.entries(section as Record<string, unknown>).map(([handle, list]) => ({
    handle,
    collection: run.index.collections.get(handle),
    records: listOf(run, ["entries", handle], list),
  }));
  const fresh = lists.reduce((sum, list) => sum + list.records.length, 0);
  const ids = orderedIds(prefixes.entry, fresh);
  let next = 0;
  for (const { handle, collection, records } of lists) {
    if (!collection) {
      run.problems.add(["entries", handle], `no collection '${handle}' in the file or the account`);
      continue;
    }
    const seen = new Set<string>();
    for (const { at, record } of records) {
      const id = ids[next++] as string;
      if (typeof record.handle !== "string") continue; // the input check says so
      if (!firstTime(run, seen, record.handle, at)) continue;
      const key = entryReference(handle, record.handle);
      const stored = run.index.entries.get(key);
      if (!stored) {
        run.index.entries.set(key, {
          id,
          collectionId: collection.id,
          handle: record.handle,
          contentPath: "",
        });
        run.index.entryHandles.set(id, record.handle);
      }
      pending.push({ at, record, collection, id: stored?.id ?? id });
    }
  }
  return pending;
}

async function planEntry(run: ImportRun, item: Pending, writes: EntryWrites) {
  const { at, record, collection, id } = item;
  const input = checkInput<EntryCreate>("EntryCreateInput", record, at, run.problems);
  const routing = checkInput<{ routing_override?: string | null }>(
    "EntryRoutingInput",
    record,
    at,
    run.problems,
  );
  if (!input || !routing) return undefined;
  const key = entryReference(collection.handle, input.handle);
  const indexed = run.index.entries.get(key);
  const stored = indexed?.stored;
  const problems = new Problems();
  let blueprint: { id: string; fields: ReturnType<typeof readFields> };
  try {
    const choice = stored
      ? collection.blueprints.find((b) => b.id === stored.blueprintId)
      : chooseBlueprint(
          collection as unknown as CollectionRow,
          collection.blueprints,
          input.blueprint_handle,
        );
    blueprint = { id: stored?.blueprintId ?? choice?.id ?? "", fields: choice?.fields ?? [] };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    run.problems.addDetails(at, error.details);
    return undefined;
  }
  checkTemplateRefs(run, at, { template_handle: input.template_handle, layout_handle: input.layout_handle });
  const valueProblems = new Problems();
  let sent: Record<string, unknown> = {};
  if (isPlainObject(input.values))
    sent = resolvedValues(run, blueprint.fields, input.values, collection.handle);
  else if (input.values != null) problems.add("values", "must be an object of field values");
  const lookup = { ctx: run.ctx, scope: run.scope, ownCollectionId: collection.id };
  const { values, references } = await normalizeValues(blueprint.fields, sent, lookup, valueProblems);
  const override = routing.routing_override ?? null;
  const publishedAt = input.published_at ?? null;
  const createdAt = stored?.createdAt ?? run.now;
  const settled = { handle: input.handle, publishedAt, createdAt, routingOverride: override };
  const parents: Record<string, string | undefined> = {};
  for (const field of fieldTokens(collection.routing)) {
    const parent = references.get(field)?.[0];
    parents[field] = parent ? run.index.entryHandles.get(parent) : undefined;
  }
  const path = contentPath(collection, settled, parents);
  if (usesDate(collection.routing) && !publishedAt && !override)
    problems.add("published_at", `is required by the collection routing '${collection.routing}'`);
  else if ("missing" in path)
    problems.add(`values.${path.missing}`, `is required by the collection routing '${collection.routing}'`);
  run.problems.addDetails(at, problems.list);
  run.problems.addDetails([...at, "values"], valueProblems.list);
  if (problems.list.length > 0 || valueProblems.list.length > 0 || "missing" in path || !indexed)
    return undefined;
  indexed.contentPath = path.path;
  const data = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
  const row: EntryRow = {
    id,
    collectionId: collection.id,
    blueprintId: blueprint.id,
    handle: input.handle,
    title: input.title,
    published: input.published ?? true,
    publishedAt,
    includeInSitemap: input.include_in_sitemap ?? true,
    position: input.position ?? 0,
    templateHandle: input.template_handle ?? null,
    layoutHandle: input.layout_handle ?? null,
    contentPath: path.path,
    routingOverride: override,
    createdAt,
    updatedAt: run.now,
    data,
  };
  const links = [...references].flatMap(([field, ids]) => ids.map((toId) => ({ fromId: id, field, toId })));
  if (!stored) {
    writes.creates.push(row);
    writes.references.push(...links);
    tally(run, "entries", "created");
  } else if (sameEntry(stored, row)) {
    tally(run, "entries", "unchanged");
  } else {
    writes.updates.push({ row: { ...row, createdAt: stored.createdAt }, version: stored.version });
    writes.references.push(...links);
    tally(run, "entries", "updated");
  }
  return override ? { override: { at, key, path: path.path } } : {};
}

function sameEntry(stored: NonNullable<IndexedEntryRow>, row: EntryRow): boolean {
  return (
    stored.title === row.title &&
    stored.published === row.published &&
    (stored.publishedAt?.getTime() ?? null) === (row.publishedAt?.getTime() ?? null) &&
    stored.includeInSitemap === row.includeInSitemap &&
    stored.position === row.position &&
    stored.templateHandle === row.templateHandle &&
    stored.layoutHandle === row.layoutHandle &&
    stored.routingOverride === row.routingOverride &&
    stored.contentPath === row.contentPath &&
    sameJson(stored.data, row.data)
  );
}

type IndexedEntryRow = NonNullable<ReturnType<ImportRun["index"]["entries"]["get"]>>["stored"];

/** An override takes a path no other entry of the account has (requireFreeOverridePath's rule). */
function checkOverridePaths(run: ImportRun, overrides: { at: Path; key: string; path: string }[]): void {
  if (overrides.length === 0) return;
  const wanted = new Map(overrides.map((override) => [override.path, override]));
  for (const [key, entry] of run.index.entries) {
    const override = wanted.get(entry.contentPath);
    if (override && override.key !== key)
      run.problems.add(
        [...override.at, "routing_override"],
        `is already the path of entry '${entry.handle}'`,
      );
  }
}
