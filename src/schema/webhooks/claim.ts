// Taking due deliveries for one dispatcher. A claim moves each row's `nextAttemptAt` ahead by a lease:
// no other dispatcher takes it until the lease runs out (a dispatcher that died mid-attempt leaves it to
// be retried then: at least once). On PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so
// concurrent dispatchers of several processes take disjoint rows without waiting on each other; SQLite
// runs one write at a time, which gives the same. A delivery is taken only when no earlier delivery of
// the same record to the same webhook is still pending (in order per record), and only for an enabled
// webhook (a disabled one's deliveries wait for it).
import type { Database } from "../../db/client.ts";
import { Prisma } from "../../generated/sqlite/client.ts";

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
  const lease = new Date(now.getTime() + leaseMs);
  const skipLocked = database.provider === "postgresql" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
  const rows = await database.db.$queryRaw<{ id: string }[]>(Prisma.sql`
    UPDATE "WebhookDelivery" SET "nextAttemptAt" = ${lease}, "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT d."id" FROM "WebhookDelivery" d
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ${now}
        AND EXISTS (SELECT 1 FROM "Webhook" w WHERE w."id" = d."webhookId" AND w."enabled" = ${true})
        AND NOT EXISTS (
          SELECT 1 FROM "WebhookDelivery" e
          WHERE e."webhookId" = d."webhookId" AND e."recordId" = d."recordId"
            AND e."status" = 'pending' AND e."id" < d."id")
      ORDER BY d."id" LIMIT ${limit} ${skipLocked})
    RETURNING "id"`);
  if (rows.length === 0) return [];
  return database.db.webhookDelivery.findMany({
    where: { id: { in: rows.map((row) => row.id) } },
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
