// The entry columns a frontend may filter and sort on, by their API names. Blueprint field handles never
// take these names (blueprints/fields.ts refuses them), so one `field` name space serves both.
export type SystemFieldKind = "id" | "string" | "int" | "date";

export interface SystemField {
  column: "id" | "handle" | "title" | "contentPath" | "position" | "createdAt" | "updatedAt" | "publishedAt";
  kind: SystemFieldKind;
  nullable: boolean;
}

export const systemFields: Record<string, SystemField> = {
  id: { column: "id", kind: "id", nullable: false },
  handle: { column: "handle", kind: "string", nullable: false },
  title: { column: "title", kind: "string", nullable: false },
  content_path: { column: "contentPath", kind: "string", nullable: false },
  position: { column: "position", kind: "int", nullable: false },
  created_at: { column: "createdAt", kind: "date", nullable: false },
  updated_at: { column: "updatedAt", kind: "date", nullable: false },
  published_at: { column: "publishedAt", kind: "date", nullable: true },
};

export function systemField(name: string): SystemField | undefined {
  return Object.hasOwn(systemFields, name) ? systemFields[name] : undefined;
}
