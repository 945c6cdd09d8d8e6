// Writing an entry row with its references and content path. Updates are compare-and-set on `version`:
// a writer that lost the race gets `false` and retries on the fresh row, so concurrent writers of
// different fields never drop each other's values. Each write records a revision of the entry: the
// database does, in the write's own statement (src/db/entry-revisions.ts), from the row and `editedBy`.
import type { Entry } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { CollectionRow } from "../collections/find.ts";
import { fieldTokens, usesDate } from "../collections/routing.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type Selection, withHeldRelations } from "../held-relations.ts";
import { newId, prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import { pruneLater } from "../revisions/prune.ts";
import { recordsRevisions, revisionAuthor } from "../revisions/record.ts";
import type { EntryRow } from "../revisions/state.ts";
import { namesTemplate, requireTemplates } from "../templates/references.ts";
import type { EventType } from "../webhooks/events.ts";
import { anyListens, recordEvents, type Tx } from "../webhooks/outbox.ts";
import { entryEvents } from "./events.ts";
import type { EntryCreate, EntryUpdate } from "./inputs.ts";
import { contentPath, type PathEntry, refreshChildPaths } from "./paths.ts";
import type { PreparedEntry } from "./prepare.ts";
import { requireFreeOverridePath } from "./routing-override.ts";
import { settlePathsLater } from "./settle-paths.ts";

/** The templates an entry write names, by field. */
const templatesOf = (input: EntryUpdate) => ({
  template_handle: input.template_handle,
  layout_handle: input.layout_handle,
});

/** Those an update names anew: one the entry names already needs no check (nor the lock it takes). */
const changedTemplates = (input: EntryUpdate, stored: StoredEntry) => ({
  template_handle: input.template_handle !== stored.templateHandle ? input.template_handle : undefined,
  layout_handle: input.layout_handle !== stored.layoutHandle ? input.layout_handle : undefined,
});

/** The stored entry as an update needs it. */
export const storedEntrySelect = {
  id: true,
  handle: true,
  title: true,
  published: true,
  includeInSitemap: true,
  position: true,
  templateHandle: true,
  layoutHandle: true,
  publishedAt: true,
  createdAt: true,
  routingOverride: true,
  data: true,
  version: true,
  blueprintId: true,
  references: { select: { field: true, toId: true } },
} as const;

/** What an entry read or write returns: a Pothos selection (`queryFromInfo`), or every column. */
export type EntryQuery = Selection;

export interface StoredEntry extends PathEntry {
  id: string;
  title: string;
  published: boolean;
  includeInSitemap: boolean;
  position: number;
  templateHandle: string | null;
  layoutHandle: string | null;
  blueprintId: string;
  data: unknown;
  version: number;
  references: { field: string; toId: string }[];
}

/**
 * Inserts the entry with its references (one transaction when it has any) and returns it as
 * `query` selects (Pothos' selection for the answer; every column without one). Relations the caller
 * holds (`held`: the collection, the blueprint row) are put on the answer instead of being read back.
 * `alsoWrite` writes more in the same transaction (a submission's notifications), given the entry's ID.
 */
export async function insertEntry(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  input: EntryCreate,
  prepared: PreparedEntry,
  query: EntryQuery = {},
  held: Record<string, object> = {},
  also: EventType[] = [],
  alsoWrite?: (tx: Tx, entryId: string) => Promise<void>,
): Promise<Entry> {
  const now = new Date();
  const settled = {
    handle: input.handle,
    publishedAt: input.published_at ?? null,
    createdAt: now,
    routingOverride: null,
  };
  const path = await settlePath(ctx, scope, collection, settled, prepared.references, []);
  const id = newId(prefixes.entry);
  const references = [...prepared.references].flatMap(([field, ids]) =>
    ids.map((toId) => ({ accountId: scope.accountId, field, toId })),
  );
  const answer = withHeldRelations(query, held);
  const row: EntryRow = {
    id,
    collectionId: collection.id,
    blueprintId: prepared.blueprint.id,
    handle: input.handle,
    title: input.title,
    published: input.published ?? true,
    publishedAt: settled.publishedAt,
    includeInSitemap: input.include_in_sitemap ?? true,
    position: input.position ?? 0,
    templateHandle: input.template_handle ?? null,
    layoutHandle: input.layout_handle ?? null,
    contentPath: path,
    routingOverride: null,
    createdAt: now,
    updatedAt: now,
    data: mergeValues({}, prepared.values),
  };
  const data = {
    ...row,
    ...scope,
    editedBy: await revisionAuthor(ctx),
    data: toJson(row.data),
  };
  const events = entryEvents(row, null, row, also);
  const listened = await anyListens(
    ctx,
    scope.accountId,
    events.map((event) => event.type),
  );
  const templates = templatesOf(input);
  // The references nested in the create: one statement more (Prisma reads the row back), yet less CPU
  // than inserting them on their own, and with nothing else to write no interactive transaction at all
  // (that transaction is a quarter of a create's CPU on SQLite).
  const nested = references.length > 0 && { references: { createMany: { data: references } } };
  const create = { ...answer.query, data: { ...data, ...nested } };
  if (!listened && !alsoWrite && !namesTemplate(templates))
    return answer.attach(await ctx.db.entry.create(create)) as Entry;
  // An interactive transaction: the template check and the other writes need the transaction's client.
  const entry = await ctx.db.$transaction(async (tx) => {
    await requireTemplates(ctx, tx, scope, templates);
    const created = await tx.entry.create(create);
    if (listened) await recordEvents(ctx, tx, scope.accountId, events);
    await alsoWrite?.(tx, row.id);
    return created;
  });
  return answer.attach(entry) as Entry;
}

/**
 * What an update may change that its input has not: the routing override is read-only in REST and set by
 * its own mutation (routing-override.ts, whose path check the caller runs first); a revision restore
 * brings it back in the same write as the rest of the entry.
 */
export interface SystemChanges {
  routingOverride?: string | null;
}

/** Returns false when another writer changed the entry since `stored` was read. */
export async function updateEntry(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  stored: StoredEntry,
  input: EntryUpdate,
  prepared: PreparedEntry,
  system: SystemChanges = {},
): Promise<boolean> {
  const settled: PathEntry = {
    handle: input.handle ?? stored.handle,
    publishedAt: input.published_at !== undefined ? input.published_at : stored.publishedAt,
    createdAt: stored.createdAt,
    routingOverride: system.routingOverride !== undefined ? system.routingOverride : stored.routingOverride,
  };
  const path = await settlePath(ctx, scope, collection, settled, prepared.references, stored.references);
  const changes = {
    ...(input.handle != null && { handle: input.handle }),
    ...(input.title != null && { title: input.title }),
    ...(input.published != null && { published: input.published }),
    ...(input.published_at !== undefined && { publishedAt: input.published_at }),
    ...(input.include_in_sitemap != null && { includeInSitemap: input.include_in_sitemap }),
    ...(input.position != null && { position: input.position }),
    // Written only when changed: one sent as it is must not undo a rename of that template meanwhile,
    // which moves the entry's reference without its version (templates/usage.ts).
    ...(input.template_handle !== undefined &&
      input.template_handle !== stored.templateHandle && { templateHandle: input.template_handle }),
    ...(input.layout_handle !== undefined &&
      input.layout_handle !== stored.layoutHandle && { layoutHandle: input.layout_handle }),
    ...(system.routingOverride !== undefined && { routingOverride: system.routingOverride }),
    contentPath: path,
    data: mergeValues(stored.data, prepared.values),
    editedBy: await revisionAuthor(ctx),
    updatedAt: new Date(),
  };
  // The entry as the write leaves it (the stored row's other keys are ignored by entryEvents).
  const after: EntryRow = { ...stored, collectionId: collection.id, ...changes };
  const written = await ctx.db.$transaction(async (tx) => {
    // A restored override takes its path only while no other entry has it (routing-override.ts).
    if (system.routingOverride !== undefined)
      await requireFreeOverridePath(ctx, tx, scope, stored.id, system.routingOverride);
    await requireTemplates(ctx, tx, scope, changedTemplates(input, stored));
    const { count } = await tx.entry.updateMany({
      where: { id: stored.id, version: stored.version },
      data: { ...changes, data: toJson(changes.data), version: { increment: 1 } },
    });
    if (count === 0) return false;
    for (const [field, ids] of prepared.references) {
      await tx.entryReference.deleteMany({ where: { fromId: stored.id, field } });
      if (ids.length > 0) {
        await tx.entryReference.createMany({
          data: ids.map((toId) => ({ ...scope, fromId: stored.id, field, toId })),
        });
      }
    }
    if (settled.handle !== stored.handle) await refreshChildPaths(tx, scope, stored.id);
    await recordEvents(ctx, tx, scope.accountId, entryEvents(after, stored, after));
    return true;
  });
  // The version moved to stored.version + 1: the revision recorded with it is numbered one more.
  if (written && recordsRevisions(ctx)) pruneLater(ctx, stored.id, stored.version + 2);
  // A child written meanwhile from the old handle (maybe the first) is moved once it is in.
  if (written && settled.handle !== stored.handle)
    settlePathsLater(ctx, `children of ${stored.id}`, (tx, unroutable) =>
      refreshChildPaths(tx, scope, stored.id, unroutable),
    );
  // Entries resolved before the write were kept in the loader: this entry and its children changed, or
  // another writer won and the retry must read afresh.
  ctx.loaders.entries(scope.accountId).clearAll();
  return written;
}

function mergeValues(stored: unknown, changes: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(stored as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The content path the entry will have, or a 422 naming what the routing needs and lacks. */
async function settlePath(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  entry: PathEntry,
  sent: Map<string, string[]>,
  stored: { field: string; toId: string }[],
): Promise<string> {
  if (usesDate(collection.routing) && !entry.publishedAt && !entry.routingOverride) {
    throw ApiError.invalid("published_at", `is required by the collection routing '${collection.routing}'`);
  }
  const parentIds = new Map<string, string>();
  for (const field of fieldTokens(collection.routing)) {
    const id = sent.has(field) ? sent.get(field)?.[0] : stored.find((ref) => ref.field === field)?.toId;
    if (id) parentIds.set(field, id);
  }
  const parents =
    parentIds.size === 0
      ? []
      : await ctx.db.entry.findMany({
          where: { ...scope, id: { in: [...parentIds.values()] } },
          select: { id: true, handle: true },
        });
  const handles = Object.fromEntries(
    [...parentIds].map(([field, id]) => [field, parents.find((parent) => parent.id === id)?.handle]),
  );
  const result = contentPath(collection, entry, handles);
  if ("missing" in result) {
    throw ApiError.invalid(result.missing, `is required by the collection routing '${collection.routing}'`);
  }
  return result.path;
}
