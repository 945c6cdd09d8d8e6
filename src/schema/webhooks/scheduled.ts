// `entry.published` for a scheduled entry whose time came, with no write to carry it. A cursor in
// ServerSetting says up to when this was done; each sweep takes the entries that went live after it (and
// were last written before going live: an entry already visible when written had its event then),
// moves the cursor with a compare-and-set and writes their events in that one transaction, so with
// several processes each moment is swept once. Only accounts with an enabled webhook are looked at.
import type { Context } from "../context.ts";
import { recordEvents } from "./outbox.ts";

const CURSOR = "webhooks.published_until";
const BATCH = 500;

export async function sweepScheduled(ctx: Context): Promise<number> {
  const now = new Date();
  const cursor = await ctx.db.serverSetting.findUnique({ where: { key: CURSOR } });
  if (!cursor) {
    // The first sweep starts now: moments before it were the past when webhooks came.
    await ctx.db.serverSetting
      .createMany({ data: [{ key: CURSOR, value: now.toISOString() }] })
      .catch(() => {});
    return 0;
  }
  const after = new Date(cursor.value);
  const due = await ctx.db.entry.findMany({
    where: {
      published: true,
      publishedAt: { gt: after, lte: now },
      updatedAt: { lt: ctx.db.entry.fields.publishedAt },
      account: { webhooks: { some: { enabled: true } } },
    },
    select: {
      id: true,
      accountId: true,
      collectionId: true,
      publishedAt: true,
      account: { select: { webhooks: { where: { enabled: true }, select: { createdAt: true } } } },
    },
    orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
    take: BATCH,
  });
  // Nothing due, nothing written: the cursor stays (entries written since were visible when written, or
  // are still to come), and an idle server's sweep never counts as a change of the data.
  if (due.length === 0) return 0;
  // A full batch moves the cursor only to its last moment; the rest are taken by the next sweep.
  const until = due.length === BATCH ? (due.at(-1)?.publishedAt ?? now) : now;
  return ctx.db.$transaction(async (tx) => {
    const moved = await tx.serverSetting.updateMany({
      where: { key: CURSOR, value: cursor.value },
      data: { value: until.toISOString() },
    });
    if (moved.count === 0) return 0;
    // The cursor moves only when something is due: an entry that went live before the account had a
    // webhook is not told of to it now.
    const taken = due.filter(
      (entry) =>
        entry.publishedAt &&
        entry.publishedAt <= until &&
        entry.account.webhooks.some((hook) => hook.createdAt < (entry.publishedAt as Date)),
    );
    for (const entry of taken) {
      const event = {
        type: "entry.published",
        kind: "entry",
        id: entry.id,
        collectionId: entry.collectionId,
      } as const;
      await recordEvents(ctx, tx, entry.accountId, [event]);
    }
    return taken.length;
  });
}
