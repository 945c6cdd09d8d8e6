// On read, entity values become the referenced entries, expanded as
// {id, title, handle, ...fields, content_path, published_at}; references to deleted entries drop out.
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import type { ReferencedEntry } from "../loaders.ts";
import { isPlainObject } from "./values.ts";

export async function expandValues(
  ctx: Context,
  accountId: string,
  fields: FieldDefinition[],
  data: unknown,
): Promise<Record<string, unknown>> {
  const values = isPlainObject(data) ? { ...data } : {};
  const loader = ctx.loaders.entries(accountId);
  for (const field of fields) {
    if (field.type !== "entity" || values[field.handle] == null) continue;
    const stored = values[field.handle];
    const ids = (Array.isArray(stored) ? stored : [stored]).filter(
      (id): id is string => typeof id === "string",
    );
    const entries = (await loader.loadMany(ids)).filter((entry): entry is ReferencedEntry => isEntry(entry));
    const expanded = entries.map(expandEntry);
    values[field.handle] = Array.isArray(stored) ? expanded : (expanded[0] ?? null);
  }
  return values;
}

function isEntry(value: ReferencedEntry | Error | null): value is ReferencedEntry {
  return value !== null && !(value instanceof Error);
}

export function expandEntry(entry: ReferencedEntry): Record<string, unknown> {
  return {
    id: entry.id,
    title: entry.title,
    handle: entry.handle,
    ...(isPlainObject(entry.data) ? entry.data : {}),
    content_path: entry.contentPath,
    published_at: entry.publishedAt?.toISOString() ?? null,
  };
}
