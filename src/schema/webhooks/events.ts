// The events a webhook can listen to, and what each is about. `entry.published` and `entry.unpublished`
// say an entry became visible on the site or stopped being so (site/scope.ts's rule): a publish, an
// unpublish, a date moved, or a scheduled time that came (scheduled.ts).
export const eventTypes = [
  "entry.created",
  "entry.updated",
  "entry.deleted",
  "entry.published",
  "entry.unpublished",
  "collection.created",
  "collection.updated",
  "collection.deleted",
  "global.updated",
  "navigation.created",
  "navigation.updated",
  "navigation.deleted",
  "form.submitted",
  "asset.created",
  "asset.deleted",
  "template.created",
  "template.updated",
  "template.deleted",
] as const;

export type EventType = (typeof eventTypes)[number];

/** The kinds of record an event carries; `data` is the record as REST returns it (form.submitted: its entry). */
export type RecordKind = "entry" | "collection" | "global" | "navigation" | "asset" | "template";

export interface ChangeEvent {
  type: EventType;
  kind: RecordKind;
  id: string;
  /** An entry's collection: REST reads an entry under it. */
  collectionId?: string;
}

/** Whether a webhook's `events` (names, or `["*"]`) include `type`. */
export function listensTo(events: readonly string[], type: EventType): boolean {
  return events.includes("*") || events.includes(type);
}
