// A global's values: checked and stored like an entry's blueprint values (entries/values.ts), against
// the global's own fields. Entity fields hold entry IDs; a bare entry handle needs `options.collection`,
// since a global has no collection of its own.
import type { AccountScope } from "../access.ts";
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { isPlainObject, normalizeValues } from "../entries/values.ts";
import type { Problems } from "../errors.ts";

/** The sent values in their stored format; null means "clear this value". */
export async function prepareValues(
  ctx: Context,
  scope: AccountScope,
  fields: readonly FieldDefinition[],
  sent: unknown,
  problems: Problems,
): Promise<Record<string, unknown>> {
  if (sent == null) return {};
  if (!isPlainObject(sent)) {
    problems.add("values", "must be an object of field values");
    return {};
  }
  const { values } = await normalizeValues(fields, sent, { ctx, scope }, problems);
  return values;
}

/**
 * The values to store: the stored ones with the changes applied (null clears), keeping only the fields
 * the blueprint will have. A field whose type changed loses its old value unless a new one is sent.
 */
export function settleValues(
  stored: unknown,
  changes: Record<string, unknown>,
  before: readonly FieldDefinition[],
  after: readonly FieldDefinition[],
): Record<string, unknown> {
  const oldTypes = new Map(before.map((field) => [field.handle, field.type]));
  const current = isPlainObject(stored) ? stored : {};
  const settled: Record<string, unknown> = {};
  for (const field of after) {
    const { handle } = field;
    if (Object.hasOwn(changes, handle)) {
      if (changes[handle] !== null) settled[handle] = changes[handle];
    } else if (Object.hasOwn(current, handle) && oldTypes.get(handle) === field.type) {
      settled[handle] = current[handle];
    }
  }
  return settled;
}

/** Only the values of the blueprint's current fields (the blueprint may change on its own). */
export function valuesOf(fields: readonly FieldDefinition[], data: unknown): Record<string, unknown> {
  const stored = isPlainObject(data) ? data : {};
  return Object.fromEntries(
    fields.filter((field) => Object.hasOwn(stored, field.handle)).map((f) => [f.handle, stored[f.handle]]),
  );
}
