// The outbox: an event becomes one delivery row per enabled webhook listening to it, inserted in the
// transaction of the change it tells of, so an acknowledged change always has its events (and a change
// rolled back has none). Accounts without such a webhook pay one kept lookup and nothing else.
import type { Db } from "../../db/client.ts";
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";
import { newId, prefixes } from "../ids.ts";
import { type ChangeEvent, type EventType, listensTo } from "./events.ts";
import { recordData } from "./record-data.ts";

export type Tx = Omit<Db, "$transaction" | "$connect" | "$disconnect" | "$on" | "$extends">;

/** Wakes the dispatcher once deliveries are written (no-op where nothing dispatches: the CLI). */
export interface WebhookDispatch {
  nudge(): void;
}

export const noDispatch: WebhookDispatch = { nudge() {} };

interface Listener {
  id: string;
  events: string[];
}

/**
 * The account's enabled webhooks, read through `db`: inside a write's transaction, its own (on SQLite a
 * read outside an open transaction would wait for it to end).
 */
function listeners(ctx: Context, accountId: string, db: Tx = ctx.db): Promise<Listener[]> {
  const read = async () =>
    (
      await db.webhook.findMany({ where: { accountId, enabled: true }, select: { id: true, events: true } })
    ).map((hook) => ({ id: hook.id, events: hook.events as string[] }));
  // What a transaction reads may be rolled back: served from what was kept, kept only when read outside one.
  const lookup = { account: accountId, of: "structure" } as const;
  return ctx.keep(`webhooks\u0000${accountId}`, read, { lookup, store: db === ctx.db });
}

/** Whether any enabled webhook of the account listens to one of `types`: else a write needs no outbox. */
export async function anyListens(ctx: Context, accountId: string, types: EventType[]): Promise<boolean> {
  const hooks = await listeners(ctx, accountId);
  return hooks.some((hook) => types.some((type) => listensTo(hook.events, type)));
}

/**
 * Inserts the deliveries of `events` inside `tx`, each event's `data` read through `tx` (or the last state
 * given for a delete, read before it). Delivery IDs follow the events' order: the dispatcher sends a
 * record's deliveries in ID order.
 */
export async function recordEvents(
  ctx: Context,
  tx: Tx,
  accountId: string,
  events: (ChangeEvent & { data?: unknown })[],
): Promise<void> {
  const hooks = await listeners(ctx, accountId, tx);
  const rows = [];
  const read = new Map<string, unknown>();
  const now = new Date();
  for (const event of events) {
    const targets = hooks.filter((hook) => listensTo(hook.events, event.type));
    if (targets.length === 0) continue;
    const key = `${event.kind}:${event.id}`;
    if (event.data === undefined && !read.has(key))
      read.set(key, await recordData(ctx, tx, accountId, event));
    // The body as it will be sent and signed, made now: text keeps REST's key order (PostgreSQL's jsonb would not).
    const body = JSON.stringify({
      type: event.type,
      timestamp: now.toISOString(),
      data: event.data ?? read.get(key),
    });
    for (const hook of targets) {
      rows.push({
        accountId,
        webhookId: hook.id,
        eventType: event.type,
        recordType: event.kind,
        recordId: event.id,
        body,
        occurredAt: now,
        nextAttemptAt: now,
      });
    }
  }
  if (rows.length === 0) return;
  const kept = await undeleted(ctx, tx, [...new Set(rows.map((row) => row.webhookId))]);
  const delivered = rows.filter((row) => kept.has(row.webhookId));
  if (delivered.length === 0) return;
  const ids = delivered.map(() => newId(prefixes.delivery)).sort();
  await tx.webhookDelivery.createMany({
    data: delivered.map((row, index) => ({ ...row, id: ids[index] as string })),
  });
  ctx.webhookDispatch.nudge();
}

/**
 * Of the listening webhooks (a kept lookup, which may predate another request's delete of one), those
 * still there: a delivery for a deleted one would fail the write it tells of. On PostgreSQL they are also
 * locked against deletion until the write commits (a delete then waits, and takes the deliveries with
 * it); SQLite runs one write at a time.
 */
async function undeleted(ctx: Context, tx: Tx, webhookIds: string[]): Promise<Set<string>> {
  const rows =
    ctx.provider === "postgresql"
      ? await tx.$queryRaw<{ id: string }[]>(
          Prisma.sql`SELECT "id" FROM "Webhook" WHERE "id" IN (${Prisma.join(webhookIds)}) FOR KEY SHARE`,
        )
      : await tx.webhook.findMany({ where: { id: { in: webhookIds } }, select: { id: true } });
  return new Set(rows.map((row) => row.id));
}

/**
 * Runs `write` with its events in one transaction when a webhook listens to any of `types`; otherwise as
 * it is, with no transaction added. `events` says what the written result tells of.
 */
export async function withEvents<T>(
  ctx: Context,
  accountId: string,
  types: EventType[],
  write: (db: Tx) => Promise<T>,
  events: (result: T) => (ChangeEvent & { data?: unknown })[],
): Promise<T> {
  if (!(await anyListens(ctx, accountId, types))) return write(ctx.db);
  return ctx.db.$transaction(async (tx) => {
    const result = await write(tx);
    await recordEvents(ctx, tx, accountId, events(result));
    return result;
  });
}

/** A record's REST state before it is deleted, for its `*.deleted` event (read only when listened to). */
export async function lastState(
  ctx: Context,
  tx: Tx,
  accountId: string,
  event: ChangeEvent,
): Promise<ChangeEvent & { data?: unknown }> {
  const hooks = await listeners(ctx, accountId, tx);
  if (!hooks.some((hook) => listensTo(hook.events, event.type))) return event;
  return { ...event, data: await recordData(ctx, tx, accountId, event) };
}

/**
 * For a delete inside `tx`: reads the record's last state now, while it exists, and returns what writes its
 * event once the delete has happened (a delete that lost a race writes nothing).
 */
export async function beforeDelete(
  ctx: Context,
  tx: Tx,
  accountId: string,
  event: ChangeEvent,
): Promise<() => Promise<void>> {
  const gone = await lastState(ctx, tx, accountId, event);
  return () => recordEvents(ctx, tx, accountId, [gone]);
}
