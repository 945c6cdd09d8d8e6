// What an entry's write tells webhooks: created or updated, and published or unpublished when it became
// visible on the site or stopped being so (site/scope.ts's rule, as of the write). A scheduled entry that
// goes live later is told of then (webhooks/scheduled.ts).
import { isVisibleAt } from "../site/scope.ts";
import type { ChangeEvent, EventType } from "../webhooks/events.ts";

interface Shown {
  published: boolean;
  publishedAt: Date | null;
}

export function entryEvents(
  entry: { id: string; collectionId: string },
  before: Shown | null,
  after: Shown,
  also: EventType[] = [],
): ChangeEvent[] {
  const now = new Date();
  const was = before !== null && isVisibleAt(before, now);
  const is = isVisibleAt(after, now);
  const types: EventType[] = [before ? "entry.updated" : "entry.created"];
  if (is && !was) types.push("entry.published");
  if (was && !is) types.push("entry.unpublished");
  types.push(...also);
  return types.map((type) => ({ type, kind: "entry", id: entry.id, collectionId: entry.collectionId }));
}
