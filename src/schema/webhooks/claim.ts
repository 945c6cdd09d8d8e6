// Taking due deliveries for one dispatcher, leased as ../outbox-lease.ts says. A delivery is taken only
// when no earlier delivery of the same record to the same webhook is still pending (in order per
// record), and only for an enabled webhook (a disabled one's deliveries wait for it).
import type { Database } from "../../db/client.ts";
import { Prisma } from "../../generated/sqlite/client.ts";
import { leaseDue } from "../outbox-lease.ts";

export interface Claimed {
  id: string;
  eventType: string;
  recordId: string;
  body: string | null;
  occurredAt: Date;
  attempts: number;
  webhook: { id: string; url: string; secret: string };
}

export async function claimDue(database: Database, limit: number, leaseMs: number): Promise<Claimed[]> {
  const now = new Date();
  // A read first: an idle server's poll writes nothing (a write, even of no rows, would count as a change
  // of the data and expire every kept read).
  const due = await database.db.webhookDelivery.findFirst({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    select: { id: true },
  });
  if (!due) return [];
  const ids = await leaseDue(database, "WebhookDelivery", {
    now,
    limit,
    leaseMs,
    also: Prisma.sql`
      AND EXISTS (SELECT 1 FROM "Webhook" w WHERE w."id" = d."webhookId" AND w."enabled" = ${true})
      AND NOT EXISTS (
        SELECT 1 FROM "WebhookDelivery" e
        WHERE e."webhookId" = d."webhookId" AND e."recordId" = d."recordId"
          AND e."status" = 'pending' AND e."id" < d."id")`,
  });
  if (ids.length === 0) return [];
  return database.db.webhookDelivery.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      eventType: true,
      recordId: true,
      body: true,
      occurredAt: true,
      attempts: true,
      webhook: { select: { id: true, url: true, secret: true } },
    },
    orderBy: { id: "asc" },
  });
}
