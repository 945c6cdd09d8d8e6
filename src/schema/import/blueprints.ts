// Blueprints, inline with their collection or standalone (the `blueprints` section): held to
// blueprintCreate's rules, matched by handle. A stored blueprint's fields are replaced by the file's as a
// blueprint update replaces them (mergeFields: sent fields kept or added, missing ones removed).
import { defineFields, type FieldDefinition, type FieldInput, mergeFields } from "../blueprints/fields.ts";
import { prefixes } from "../ids.ts";
import { toJson } from "../json.ts";
import type { Path } from "./document.ts";
import { checkInput } from "./input-check.ts";
import { orderedIds } from "./ordered-ids.ts";
import { firstTime, type ImportRun, listOf, sameJson, type Tx, tally } from "./run.ts";
import type { IndexedBlueprint } from "./site-index.ts";

interface BlueprintInput {
  title: string;
  handle?: string;
  fields?: FieldInput[] | null;
}

export interface BlueprintWrites {
  creates: {
    id: string;
    handle: string;
    title: string;
    fields: readonly FieldDefinition[];
    collectionId: string | null;
  }[];
  updates: { id: string; title: string; fields: readonly FieldDefinition[]; collectionId: string | null }[];
}

export function newBlueprintWrites(): BlueprintWrites {
  return { creates: [], updates: [] };
}

/**
 * Plans the blueprints at `path` for their owner (a collection's ID, or null for standalone ones) and
 * returns them as indexed, in file order.
 */
export function planBlueprints(
  run: ImportRun,
  path: Path,
  list: unknown,
  owner: { id: string | null; handle?: string },
  seen: Set<string>,
  writes: BlueprintWrites,
): IndexedBlueprint[] {
  const planned: IndexedBlueprint[] = [];
  const records = listOf(run, path, list);
  const ids = orderedIds(prefixes.blueprint, records.length);
  for (const [position, { at, record }] of records.entries()) {
    const input = checkInput<BlueprintInput>("BlueprintCreateInput", record, at, run.problems);
    if (!input) continue;
    if (!input.handle) {
      run.problems.add([...at, "handle"], "is required");
      continue;
    }
    if (!firstTime(run, seen, input.handle, at)) continue;
    const sent = (input.fields ?? []) as FieldInput[];
    const stored = run.index.blueprints.get(input.handle);
    if (stored && !owns(run, owner, stored, at)) continue;
    if (!stored) {
      const id = ids[position] as string;
      const fields = defineFields(sent);
      writes.creates.push({ id, handle: input.handle, title: input.title, fields, collectionId: owner.id });
      const indexed = {
        id,
        handle: input.handle,
        title: input.title,
        fields,
        collectionId: owner.id,
        globalHandle: null,
        planned: true,
      };
      run.index.blueprints.set(input.handle, indexed);
      planned.push(indexed);
      tally(run, "blueprints", "created");
      continue;
    }
    const fields = mergeFields(stored.fields, sent);
    const collectionId = owner.id ?? stored.collectionId;
    if (
      stored.title === input.title &&
      sameJson(stored.fields, fields) &&
      stored.collectionId === collectionId
    ) {
      tally(run, "blueprints", "unchanged");
    } else {
      writes.updates.push({ id: stored.id, title: input.title, fields, collectionId });
      Object.assign(stored, { title: input.title, fields, collectionId });
      tally(run, "blueprints", "updated");
    }
    planned.push(stored);
  }
  return planned;
}

/** Whether the stored blueprint may be the owner's: not a global's, nor another collection's. */
function owns(
  run: ImportRun,
  owner: { id: string | null; handle?: string },
  stored: IndexedBlueprint,
  at: Path,
): boolean {
  const other = stored.globalHandle
    ? `global '${stored.globalHandle}'`
    : owner.id !== null && stored.collectionId !== null && stored.collectionId !== owner.id
      ? "another collection"
      : undefined;
  if (other) run.problems.add([...at, "handle"], `blueprint '${stored.handle}' already belongs to ${other}`);
  return other === undefined;
}

export async function writeBlueprints(tx: Tx, run: ImportRun, writes: BlueprintWrites): Promise<void> {
  const { now, scope } = run;
  if (writes.creates.length > 0) {
    await tx.blueprint.createMany({
      data: writes.creates.map((row) => ({
        ...scope,
        ...row,
        fields: toJson(row.fields),
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  for (const { id, fields, ...changes } of writes.updates) {
    await tx.blueprint.update({
      where: { id },
      data: { ...changes, fields: toJson(fields), updatedAt: now },
    });
  }
}
