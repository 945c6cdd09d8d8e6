// The checks of an entry write that do not depend on the stored row: which blueprint, which templates,
// and the blueprint values brought to their stored format. All problems are reported together.
import type { AccountScope } from "../access.ts";
import { type FieldDefinition, readFields } from "../blueprints/fields.ts";
import type { CollectionRow } from "../collections/find.ts";
import type { Context } from "../context.ts";
import { ApiError, Problems } from "../errors.ts";
import { checkTemplateHandles } from "../templates/references.ts";
import type { EntryUpdate } from "./inputs.ts";
import { isPlainObject, normalizeValues } from "./values.ts";

export interface BlueprintChoice {
  id: string;
  fields: readonly FieldDefinition[];
}

export interface PreparedEntry {
  blueprint: BlueprintChoice;
  values: Record<string, unknown>;
  references: Map<string, string[]>;
}

/**
 * `blueprint_handle` if given (one of the collection's), else the collection's first blueprint; with the
 * row it was chosen from (what an answer shows of it).
 */
export function chooseBlueprint<Row extends { id: string; handle: string; fields: unknown }>(
  collection: CollectionRow,
  blueprints: readonly Row[],
  handle: string | null | undefined,
): BlueprintChoice & { row: Row } {
  const chosen =
    handle != null ? blueprints.find((b) => b.handle === handle || b.id === handle) : blueprints[0];
  if (!chosen) {
    throw ApiError.invalid(
      "blueprint_handle",
      handle != null
        ? `is not a blueprint of collection '${collection.handle}'`
        : "is required: the collection has no blueprint",
    );
  }
  return { id: chosen.id, fields: readFields(chosen.fields), row: chosen };
}

export async function prepareEntry(
  ctx: Context,
  scope: AccountScope,
  collection: CollectionRow,
  blueprint: BlueprintChoice,
  input: EntryUpdate,
): Promise<PreparedEntry> {
  const problems = new Problems();
  await checkTemplateHandles(
    ctx.db,
    scope,
    { template_handle: input.template_handle, layout_handle: input.layout_handle },
    problems,
  );
  let sent: Record<string, unknown> = {};
  if (isPlainObject(input.values)) sent = input.values;
  else if (input.values != null) problems.add("values", "must be an object of field values");
  const lookup = { ctx, scope, ownCollectionId: collection.id };
  const { values, references } = await normalizeValues(blueprint.fields, sent, lookup, problems);
  problems.throwIfAny();
  return { blueprint, values, references };
}
