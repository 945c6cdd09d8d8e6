// Blueprints in the document: each collection's inline with it (collections.ts), each global's inline
// with it (globals.ts), and here the standalone ones, which neither owns. A blueprint is written as its
// handle, title and field definitions in position order (a field's options name collections by handle).
import type { AccountScope } from "../access.ts";
import { type FieldDefinition, readFields } from "../blueprints/fields.ts";
import { unowned } from "../collections/attach-blueprint.ts";
import type { Context } from "../context.ts";
import { creationOrder } from "./keyset.ts";
import { yamlEntry } from "./yaml-text.ts";

export const blueprintColumns = { id: true, handle: true, title: true, fields: true } as const;

export function portableFields(stored: unknown): readonly FieldDefinition[] {
  return readFields(stored).map(({ handle, display, type, position, options }) => ({
    handle,
    display,
    type,
    position,
    options: options ?? {},
  }));
}

export function portableBlueprint(blueprint: { handle: string; title: string; fields: unknown }) {
  return { handle: blueprint.handle, title: blueprint.title, fields: portableFields(blueprint.fields) };
}

export async function standaloneBlueprintsSection(ctx: Context, scope: AccountScope): Promise<string> {
  const rows = await ctx.db.blueprint.findMany({
    where: { ...scope, ...unowned },
    select: blueprintColumns,
    orderBy: creationOrder(),
  });
  return yamlEntry("blueprints", rows.map(portableBlueprint));
}

/** Every blueprint of the account by ID: which one an entry uses, and its fields. */
export async function blueprintIndex(ctx: Context, scope: AccountScope) {
  const rows = await ctx.db.blueprint.findMany({
    where: scope,
    select: { id: true, handle: true, fields: true },
  });
  return new Map(rows.map((row) => [row.id, { handle: row.handle, fields: readFields(row.fields) }]));
}

export type BlueprintIndex = Awaited<ReturnType<typeof blueprintIndex>>;
