// Every change to a navigation's items is a `navigation.updated` event, whose data carries the whole tree
// as the change left it: recorded at the end of the change's own transaction.
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { recordEvents, type Tx } from "../webhooks/outbox.ts";

export async function itemsChanged<T>(
  ctx: Context,
  tx: Tx,
  scope: AccountScope,
  navigationId: string,
  change: () => Promise<T>,
): Promise<T> {
  const result = await change();
  const event = { type: "navigation.updated", kind: "navigation", id: navigationId } as const;
  await recordEvents(ctx, tx, scope.accountId, [event]);
  return result;
}
