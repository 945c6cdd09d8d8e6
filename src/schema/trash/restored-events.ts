// A record restored from the trash exists again: webhooks hear of it as created (and an entry visible on
// the site as published). Forms have no events of their own; a global's only event is an update.

import { entryEvents } from "../entries/events.ts";
import type { ChangeEvent } from "../webhooks/events.ts";
import type { TrashType, Tx } from "./store.ts";

export async function restoredEvents(tx: Tx, type: TrashType, id: string): Promise<ChangeEvent[]> {
  switch (type) {
    case "entry": {
      const row = await tx.entry.findUniqueOrThrow({
        where: { id },
        select: { id: true, collectionId: true, published: true, publishedAt: true },
      });
      return entryEvents(row, null, row);
    }
    case "template":
    case "navigation":
    case "asset":
      return [{ type: `${type}.created`, kind: type, id }];
    case "global":
      return [{ type: "global.updated", kind: "global", id }];
    case "form":
      return [];
  }
}
