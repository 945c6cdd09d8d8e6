// The collection a content query reads, with the fields of its blueprints (what filters may name).
import type { AccountScope } from "../access.ts";
import { type FieldDefinition, readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";

export interface ContentCollection {
  id: string;
  orderable: string;
  fields: Map<string, FieldDefinition>;
}

export async function contentCollection(
  ctx: Context,
  scope: AccountScope,
  idOrHandleValue: string,
): Promise<ContentCollection> {
  const collection = await ctx.db.collection.findFirst({
    where: { ...scope, ...idOrHandle(idOrHandleValue, prefixes.collection) },
    select: {
      id: true,
      orderable: true,
      blueprints: { select: { fields: true }, orderBy: { createdAt: "asc" } },
    },
  });
  if (!collection) throw ApiError.notFound("Collection");
  const fields = new Map<string, FieldDefinition>();
  for (const blueprint of collection.blueprints)
    for (const field of readFields(blueprint.fields))
      if (!fields.has(field.handle)) fields.set(field.handle, field);
  return { id: collection.id, orderable: collection.orderable, fields };
}
